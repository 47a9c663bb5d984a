package dev.cryptopay.subscriptions.customer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.crypto.Hash;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;

/**
 * A wallet that knows no ABI enrols on the real subscription contract (anvil) by sending exactly the transactions
 * {@code prepare} answers: the contract accepts the merchant's signature over the service's typed data, computes the
 * plan's {@code plan_id}, and records the invitation's {@code ref}.
 */
class PrepareOnChainTest extends SubscriptionsTestBase {

    private static final String SUBSCRIBED =
            "Subscribed(bytes32,bytes32,address,address,address,address,uint256,uint64,uint64,bytes32)";

    @Test
    void theKitsTransactionsEnrolTheWalletOnTheContract() {
        DevChain chain = DevChain.shared();
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Ada", null)
                .get("id")
                .asString();
        JsonNode kit = read(as(
                        null,
                        org.springframework.http.HttpMethod.GET,
                        "/public/subscriber/prepare?subscriber_id=" + subscriberId + "&wallet_address=" + WALLET
                                + "&periods=12")
                .exchange()
                .expectStatus()
                .isOk());
        assertThat(kit.get("ref").asString()).isEqualTo(Hash.sha3String("cryptopay.subscriber:" + subscriberId));
        JsonNode transactions = kit.get("transactions");
        assertThat(transactions).hasSize(2);
        assertThat(transactions.get(0).get("to").asString()).isEqualTo(DEV_USDC);
        assertThat(transactions.get(1).get("to").asString()).isEqualTo(DevChain.SUBSCRIPTION_CONTRACT);

        chain.mint(DevTokens.USDC, WALLET, DevTokens.USDC.baseUnits("120"));
        TransactionReceipt subscribed = null;
        for (JsonNode transaction : transactions) {
            subscribed = chain.sendTransaction(
                    WALLET,
                    transaction.get("to").asString(),
                    transaction.get("data").asString(),
                    Numeric.decodeQuantity(transaction.get("value").asString()));
        }

        assertThat(allowance(chain, WALLET))
                .as("exactly the approval the kit named (a trial: nothing pulled yet)")
                .isEqualTo(new BigInteger(kit.get("approval").get("amount").asString()));
        Log event = subscribed.getLogs().stream()
                .filter(log -> log.getTopics().get(0).equals(Hash.sha3String(SUBSCRIBED)))
                .findFirst()
                .orElseThrow();
        assertThat(event.getTopics().get(2))
                .as("the contract's planId is the plan's plan_id")
                .isEqualTo(plan.get("plan_id").asString());
        assertThat(Numeric.toBigInt(event.getTopics().get(3)))
                .as("the subscriber is the wallet that sent it")
                .isEqualTo(Numeric.toBigInt(WALLET));
        String data = Numeric.cleanHexPrefix(event.getData());
        assertThat("0x" + data.substring(6 * 64, 7 * 64))
                .as("ref")
                .isEqualTo(kit.get("ref").asString());
    }

    private static BigInteger allowance(DevChain chain, String owner) {
        Function allowance = new Function(
                "allowance",
                List.of(new Address(owner), new Address(DevChain.SUBSCRIPTION_CONTRACT)),
                List.of(new org.web3j.abi.TypeReference<org.web3j.abi.datatypes.generated.Uint256>() {}));
        return Numeric.toBigInt(chain.callRaw(DEV_USDC, FunctionEncoder.encode(allowance)));
    }
}
