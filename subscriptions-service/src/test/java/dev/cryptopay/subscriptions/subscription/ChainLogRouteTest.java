package dev.cryptopay.subscriptions.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import dev.cryptopay.testsupport.chain.DevChain;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /internal/chain/logs}: only chain-watcher may report, a body must be a log, a log of another contract
 * or one taken away before it was applied changes nothing, and a plan the merchant revoked on chain is revoked.
 */
class ChainLogRouteTest extends SubscriptionsTestBase {

    @Test
    void onlyTheChainWatcherReportsAndOnlyWellFormedLogs() {
        Map<String, Object> body = log("0x" + "11".repeat(32));
        send(null, HttpMethod.POST, "/internal/chain/logs", body).expectStatus().isForbidden();
        body.put("topics", List.of());
        asChainWatcher(HttpMethod.POST, "/internal/chain/logs")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(json.writeValueAsString(body))
                .exchange()
                .expectStatus()
                .isBadRequest();
        body.put("topics", List.of("0x" + "22".repeat(32)));
        body.put("data", "0xabc");
        JsonNode problem = read(asChainWatcher(HttpMethod.POST, "/internal/chain/logs")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(json.writeValueAsString(body))
                .exchange()
                .expectStatus()
                .isBadRequest());
        assertThat(problem.toString()).contains("data");
    }

    @Test
    void aLogOfAnotherContractIsIgnored() {
        Map<String, Object> body = log("0x" + "33".repeat(32));
        body.put("contract", "0x" + "44".repeat(20));
        JsonNode answer = read(asChainWatcher(HttpMethod.POST, "/internal/chain/logs")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(json.writeValueAsString(body))
                .exchange()
                .expectStatus()
                .isCreated());
        assertThat(answer.get("outcome").asString()).isEqualTo("ignored");
    }

    @Test
    void aPlanRevokedOnChainIsRevokedAndALogTakenAwayFirstIsNeverApplied() {
        MerchantIdentity merchant = newMerchant();
        // Terms no other test signs (a plan's on-chain id is its signed terms; the shared chain keeps revocations).
        Map<String, Object> terms = amountPlan("Soon gone");
        terms.put("plan_nonce", java.util.concurrent.ThreadLocalRandom.current().nextLong(1L << 40, 1L << 52));
        JsonNode plan = createPlan(merchant, terms);
        String planId = plan.get("plan_id").asString();
        TransactionReceipt revoked = CHAIN.sendTransaction(
                MERCHANT_ADDRESS,
                DevChain.SUBSCRIPTION_CONTRACT,
                FunctionEncoder.encode(new Function(
                        "revokePlan", List.of(new Bytes32(Numeric.hexStringToByteArray(planId))), List.of())),
                java.math.BigInteger.ZERO);
        Log log = revoked.getLogs().get(0);

        // First reported as removed (a reorganisation took it away before it was confirmed as kept): nothing moves.
        reportLog(log, true).expectStatus().isCreated();
        assertThat(read(get(merchant, "/subscriptions/plans/" + plan.get("id").asString())
                                .expectStatus()
                                .isOk())
                        .get("revoked")
                        .asBoolean())
                .isFalse();

        TransactionReceipt again = CHAIN.sendTransaction(
                MERCHANT_ADDRESS,
                DevChain.SUBSCRIPTION_CONTRACT,
                FunctionEncoder.encode(new Function(
                        "revokePlan", List.of(new Bytes32(Numeric.hexStringToByteArray(planId))), List.of())),
                java.math.BigInteger.ZERO);
        assertThat(reportLogs(again)).containsExactly("applied");
        assertThat(read(get(merchant, "/subscriptions/plans/" + plan.get("id").asString())
                                .expectStatus()
                                .isOk())
                        .get("revoked")
                        .asBoolean())
                .isTrue();
        assertThat(read(as(
                                        null,
                                        HttpMethod.GET,
                                        "/public/subscriptions/plans/"
                                                + plan.get("id").asString())
                                .exchange()
                                .expectStatus()
                                .isOk())
                        .get("revoked")
                        .asBoolean())
                .isTrue();
    }

    /** A well-formed log body of the dev chain's subscription contract with an unknown event. */
    private static Map<String, Object> log(String txHash) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("chain_id", 31337);
        body.put("contract", DevChain.SUBSCRIPTION_CONTRACT.toLowerCase());
        body.put("tx_hash", txHash);
        body.put("log_index", 0);
        body.put("block_number", 1);
        body.put("block_hash", "0x" + "55".repeat(32));
        body.put("block_time", "2026-11-26T00:00:00Z");
        body.put("topics", List.of("0x" + "66".repeat(32)));
        body.put("data", "0x");
        body.put("confirmations", 3);
        return body;
    }
}
