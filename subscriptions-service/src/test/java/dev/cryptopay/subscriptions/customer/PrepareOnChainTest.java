package dev.cryptopay.subscriptions.customer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import dev.cryptopay.subscriptions.plan.SubscriptionContractCalls;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
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
        allowContract(WALLET, BigInteger.ZERO);
        JsonNode kit = prepare(subscriberId, 12);
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

    @Test
    void theKitAddsToTheWalletsCurrentAllowanceAndResetsItToZeroFirst() {
        DevChain chain = DevChain.shared();
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Second subscription"));
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Ada", null)
                .get("id")
                .asString();
        // Another subscription of this wallet in the same token still counts on 25 USDC of allowance.
        BigInteger other = DevTokens.USDC.baseUnits("25");
        allowContract(WALLET, other);

        JsonNode kit = prepare(subscriberId, 12);
        JsonNode approval = kit.get("approval");
        BigInteger total = other.add(DevTokens.USDC.baseUnits("120"));
        assertThat(approval.get("current_allowance").asString()).isEqualTo(other.toString());
        assertThat(approval.get("reset_first").asBoolean()).isTrue();
        assertThat(approval.get("amount").asString()).isEqualTo(total.toString());
        JsonNode transactions = kit.get("transactions");
        assertThat(transactions).hasSize(3);
        assertThat(transactions.get(0).get("data").asString())
                .as("approve(contract, 0) first: USDT-like tokens refuse a non-zero to non-zero change")
                .isEqualTo(SubscriptionContractCalls.approve(DevChain.SUBSCRIPTION_CONTRACT, BigInteger.ZERO));
        assertThat(transactions.get(1).get("data").asString())
                .isEqualTo(SubscriptionContractCalls.approve(DevChain.SUBSCRIPTION_CONTRACT, total));
        assertThat(transactions.get(2).get("to").asString()).isEqualTo(DevChain.SUBSCRIPTION_CONTRACT);

        chain.mint(DevTokens.USDC, WALLET, DevTokens.USDC.baseUnits("120"));
        for (JsonNode transaction : transactions) {
            assertThat(chain.sendTransaction(
                                    WALLET,
                                    transaction.get("to").asString(),
                                    transaction.get("data").asString(),
                                    Numeric.decodeQuantity(
                                            transaction.get("value").asString()))
                            .isStatusOK())
                    .isTrue();
        }
        assertThat(allowance(chain, WALLET))
                .as("the other subscription's 25 USDC kept, plus 12 periods (a trial: nothing pulled yet)")
                .isEqualTo(total);

        allowContract(WALLET, BigInteger.ZERO);
        JsonNode fresh = prepare(subscriberId, 12);
        assertThat(fresh.get("approval").get("reset_first").asBoolean()).isFalse();
        assertThat(fresh.get("transactions"))
                .as("no allowance: approve, subscribe")
                .hasSize(2);
    }

    @Test
    void aKitWhoseAllowanceCannotBeReadIsRefusedNotGuessed() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> body = amountPlan("Sepolia");
        body.put("network_id", SEPOLIA_ID);
        body.put("token", "0x1c7d4b196cb0c7b01d743fbc6116a902379c7238");
        JsonNode plan = createPlan(merchant, body);
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Ada", null)
                .get("id")
                .asString();
        JsonNode problem = read(as(
                        null,
                        org.springframework.http.HttpMethod.GET,
                        "/public/subscriber/prepare?subscriber_id=" + subscriberId + "&wallet_address=" + WALLET)
                .exchange()
                .expectStatus()
                .isEqualTo(503));
        assertThat(problem.get("code").asString()).isEqualTo("chain_unavailable");
    }

    private JsonNode prepare(String subscriberId, int periods) {
        return read(as(
                        null,
                        org.springframework.http.HttpMethod.GET,
                        "/public/subscriber/prepare?subscriber_id=" + subscriberId + "&wallet_address=" + WALLET
                                + "&periods=" + periods)
                .exchange()
                .expectStatus()
                .isOk());
    }

    private static BigInteger allowance(DevChain chain, String owner) {
        Function allowance = new Function(
                "allowance",
                List.of(new Address(owner), new Address(DevChain.SUBSCRIPTION_CONTRACT)),
                List.of(new org.web3j.abi.TypeReference<org.web3j.abi.datatypes.generated.Uint256>() {}));
        return Numeric.toBigInt(chain.callRaw(DEV_USDC, FunctionEncoder.encode(allowance)));
    }
}
