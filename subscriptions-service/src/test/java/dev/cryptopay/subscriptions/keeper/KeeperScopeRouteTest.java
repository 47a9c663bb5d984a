package dev.cryptopay.subscriptions.keeper;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import dev.cryptopay.testsupport.chain.DevChain;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /internal/keeper/scope}: only chain-watcher asks; a subscription is collected only while a link the chain
 * confirmed for this service holds it, active, not expired, on a plan not revoked, of the contract this service names;
 * a stop by the merchant or the customer takes it out at once, a restart brings it back.
 */
class KeeperScopeRouteTest extends SubscriptionsTestBase {

    private static final String NOBODYS = "0x" + "5a".repeat(32);

    @Test
    void onlyTheChainWatcherAsksAndOnlyWellFormedQuestions() {
        send(null, HttpMethod.POST, "/internal/keeper/scope", question(NOBODYS))
                .expectStatus()
                .isForbidden();
        Map<String, Object> body = question("0x1234");
        assertThat(read(ask(body).expectStatus().isBadRequest()).toString()).contains("subscription_ids");
        List<String> tooMany = new ArrayList<>();
        for (int i = 0; i <= KeeperScopeRequest.MAX_IDS; i++) {
            tooMany.add(NOBODYS);
        }
        body.put("subscription_ids", tooMany);
        ask(body).expectStatus().isBadRequest();
        body = question(NOBODYS);
        body.put("extra", true);
        ask(body).expectStatus().isBadRequest();
        asChainWatcher(HttpMethod.POST, "/internal/keeper/scope")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("[1, 2")
                .exchange()
                .expectStatus()
                .isBadRequest();
    }

    @Test
    void aSubscriptionNobodyBoundIsNotCollected() {
        JsonNode answer = only(ask(question(NOBODYS)).expectStatus().isOk());
        assertThat(answer.get("subscription_id").asString()).isEqualTo(NOBODYS);
        assertThat(answer.get("collect").asBoolean()).isFalse();
        assertThat(answer.get("merchant_id").isNull()).isTrue();
        assertThat(answer.get("reason").asString()).isEqualTo("not_bound");
    }

    @Test
    void aBoundLinkIsCollectedUntilItsMerchantStopsItAndAgainOnceRestarted() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Scoped"));
        String subscriberId = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                .get("id")
                .asString();
        JsonNode link = enrol(plan.get("id").asString(), subscriberId);
        String id = chainId(link);

        JsonNode collected = only(ask(question(id.toUpperCase().replace("0X", "0x")))
                .expectStatus()
                .isOk());
        assertThat(collected.get("subscription_id").asString())
                .as("ids answered lower-case")
                .isEqualTo(id);
        assertThat(collected.get("collect").asBoolean()).isTrue();
        assertThat(collected.get("merchant_id").asString())
                .isEqualTo(merchant.merchantId().toString());
        assertThat(collected.get("reason").isNull()).isTrue();

        String linkPath = "/subscriptions/link/" + link.get("id").asString();
        send(merchant, HttpMethod.PUT, linkPath, Map.of("is_active", false))
                .expectStatus()
                .isOk();
        JsonNode stopped = only(ask(question(id)).expectStatus().isOk());
        assertThat(stopped.get("collect").asBoolean())
                .as("stopped: never collected again")
                .isFalse();
        assertThat(stopped.get("reason").asString()).isEqualTo("stopped");
        assertThat(stopped.get("merchant_id").asString())
                .isEqualTo(merchant.merchantId().toString());

        send(merchant, HttpMethod.PUT, linkPath, Map.of("is_active", true))
                .expectStatus()
                .isOk();
        assertThat(only(ask(question(id)).expectStatus().isOk()).get("collect").asBoolean())
                .as("restarted by its merchant")
                .isTrue();

        Map<String, Object> otherContract = question(id);
        otherContract.put("contract", "0x" + "44".repeat(20));
        JsonNode other = only(ask(otherContract).expectStatus().isOk());
        assertThat(other.get("collect").asBoolean()).isFalse();
        assertThat(other.get("reason").asString()).isEqualTo("other_contract");
        Map<String, Object> otherChain = question(id);
        otherChain.put("chain_id", 1);
        assertThat(only(ask(otherChain).expectStatus().isOk()).get("collect").asBoolean())
                .isFalse();
    }

    @Test
    void theCustomersCancelAndTheLinksExpiryTakeItOut() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Scoped expiry"));
        String planId = plan.get("id").asString();
        JsonNode first = enrol(
                planId,
                createSubscriber(merchant, planId, "Bo", "bo@example.com")
                        .get("id")
                        .asString());
        String cancelledId = chainId(first);
        walletPut(first.get("id").asString(), Map.of("is_active", false))
                .expectStatus()
                .isOk();
        assertThat(only(ask(question(cancelledId)).expectStatus().isOk())
                        .get("reason")
                        .asString())
                .isEqualTo("stopped");

        JsonNode second = enrol(
                planId,
                createSubscriber(merchant, planId, "Cy", "cy@example.com")
                        .get("id")
                        .asString());
        String expiringId = chainId(second);
        send(
                        merchant,
                        HttpMethod.PUT,
                        "/subscriptions/link/" + second.get("id").asString(),
                        Map.of(
                                "expires_at",
                                clock.instant().plus(Duration.ofHours(1)).toString()))
                .expectStatus()
                .isOk();
        JsonNode answers = read(ask(question(cancelledId, expiringId))
                        .expectStatus()
                        .isOk())
                .get("subscriptions");
        assertThat(answers.get(0).get("subscription_id").asString())
                .as("in the order asked")
                .isEqualTo(cancelledId);
        assertThat(answers.get(1).get("collect").asBoolean()).isTrue();

        clock.set(clock.instant().plus(Duration.ofHours(2)));
        JsonNode expired = only(ask(question(expiringId)).expectStatus().isOk());
        assertThat(expired.get("collect").asBoolean()).isFalse();
        assertThat(expired.get("reason").asString()).isEqualTo("expired");
    }

    @Test
    void aPlanRevokedOnChainTakesItsSubscriptionsOut() {
        MerchantIdentity merchant = newMerchant();
        // Its own nonce: a plan's on-chain id is its signed terms, and revoking it revokes it for everyone.
        Map<String, Object> terms = new LinkedHashMap<>(amountPlan("Scoped revoked"));
        terms.put("plan_nonce", 1_000_000 + new java.security.SecureRandom().nextInt(1_000_000_000));
        JsonNode plan = createPlan(merchant, terms);
        String planId = plan.get("id").asString();
        JsonNode link = enrol(
                planId,
                createSubscriber(merchant, planId, "Di", "di@example.com")
                        .get("id")
                        .asString());
        String id = chainId(link);
        reportLogs(
                contractCall(MERCHANT_ADDRESS, "revokePlan", plan.get("plan_id").asString()));
        JsonNode revoked = only(ask(question(id)).expectStatus().isOk());
        assertThat(revoked.get("collect").asBoolean()).isFalse();
        assertThat(revoked.get("reason").asString()).isEqualTo("plan_revoked");
    }

    private static String chainId(JsonNode link) {
        String id = link.get("chain_subscription_id").asString();
        assertThat(id).matches("0x[0-9a-f]{64}");
        return id;
    }

    private static Map<String, Object> question(String... ids) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("chain_id", DevChain.CHAIN_ID);
        body.put("contract", DevChain.SUBSCRIPTION_CONTRACT);
        body.put("subscription_ids", List.of(ids));
        return body;
    }

    private WebTestClient.ResponseSpec ask(Map<String, Object> body) {
        return asChainWatcher(HttpMethod.POST, "/internal/keeper/scope")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(json.writeValueAsString(body))
                .exchange();
    }

    private JsonNode only(WebTestClient.ResponseSpec answer) {
        JsonNode answers = read(answer).get("subscriptions");
        assertThat(answers).hasSize(1);
        return answers.get(0);
    }
}
