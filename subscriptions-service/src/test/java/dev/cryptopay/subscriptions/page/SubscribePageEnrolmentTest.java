package dev.cryptopay.subscriptions.page;

import static dev.cryptopay.checkoutui.PageChecks.body;
import static dev.cryptopay.checkoutui.PageChecks.state;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;

/**
 * Enrolling from the page (its script's JSON, its by-hand form), then the same address showing the subscription the
 * chain confirmed: paid periods with their transactions, the next payment, cancelling, and the end.
 */
class SubscribePageEnrolmentTest extends SubscribePageTestBase {

    private static final String HASH = "0x" + "ab".repeat(32);

    @Test
    void theScriptsEnrolmentIsPendingUntilTheChainConfirmsIt() {
        JsonNode[] made = invitation(newMerchant(), amountPlan("Pending"), Map.of());
        String id = made[1].get("id").asString();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("subscriber_id", id);
        body.put("wallet_address", WALLET.toLowerCase());
        body.put("subscribe_hash", HASH);
        body.put("approval_hash", "0x" + "cd".repeat(32));
        body.put("amount_approved", "120000000");

        JsonNode status = read(send(null, HttpMethod.POST, "/checkout/subscribe/enrol", body)
                .expectStatus()
                .isCreated());
        assertThat(status.get("state").asString()).isEqualTo("pending");
        assertThat(status.get("chain_status").asString()).isEqualTo("pending");

        String html = html(id);
        assertThat(state(html)).isEqualTo("pending");
        assertThat(html)
                .contains("<noscript><meta http-equiv=\"refresh\" content=\"10\"></noscript>")
                .contains("<code id=\"wallet-address\">" + WALLET + "</code>")
                .contains("<code class=\"tx-hash\">" + HASH + "</code>")
                .contains("<p id=\"no-payments\">No payment yet.</p>")
                .doesNotContain("id=\"enrol\"")
                .doesNotContain("id=\"cancel-subscription\"");

        // Refusals are the public enrolment's: too small an approval; a bad field.
        body.put("amount_approved", "1");
        JsonNode small = read(send(null, HttpMethod.POST, "/checkout/subscribe/enrol", body)
                .expectStatus()
                .isBadRequest());
        assertThat(small.get("code").asString()).isEqualTo("insufficient_approval");
        body.put("subscribe_hash", "0x12");
        body.put("extra", "x");
        JsonNode bad = read(send(null, HttpMethod.POST, "/checkout/subscribe/enrol", body)
                .expectStatus()
                .isBadRequest());
        assertThat(bad.get("errors").toString()).contains("subscribe_hash", "extra");
    }

    @Test
    void theByHandFormEnrolsWithoutJavaScriptAndShowsARefusalBesideTheForm() {
        JsonNode[] made = invitation(newMerchant(), amountPlan("By hand"), Map.of());
        String id = made[1].get("id").asString();

        MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
        form.add("subscriber_id", id);
        form.add("wallet_address", "0x1234");
        form.add("subscribe_hash", HASH);
        String refused = body(as(null, HttpMethod.POST, "/checkout/subscribe/enrol")
                .contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .bodyValue(form)
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectHeader()
                .contentType("text/html;charset=utf-8"));
        assertThat(state(refused)).isEqualTo("invitation");
        assertThat(element(refused, "form-error")).startsWith("wallet_address must be");

        form.set("wallet_address", WALLET);
        as(null, HttpMethod.POST, "/checkout/subscribe/enrol")
                .contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .bodyValue(form)
                .exchange()
                .expectStatus()
                .isSeeOther()
                .expectHeader()
                .valueEquals("Location", "../subscribe?subscriber_id=" + id);
        assertThat(state(html(id))).isEqualTo("pending");

        form.set("subscriber_id", "nope");
        as(null, HttpMethod.POST, "/checkout/subscribe/enrol")
                .contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .bodyValue(form)
                .exchange()
                .expectStatus()
                .isBadRequest();
    }

    @Test
    void afterEnrolmentTheSameAddressShowsTheSubscriptionItsPaymentsAndCancelling() {
        MerchantIdentity merchant = newMerchant();
        JsonNode[] made = invitation(
                merchant,
                noTrialPlan("Paid monthly"),
                Map.of(
                        "success_return_url", "https://shop.example/welcome",
                        "failure_return_url", "https://shop.example/bye"));
        String planId = made[0].get("id").asString();
        String id = made[1].get("id").asString();

        JsonNode link = enrol(planId, id);
        String html = html(id);
        assertThat(state(html)).isEqualTo("active");
        assertThat(html)
                .contains("data-paid-periods=\"1\"")
                .contains("<span id=\"paid-periods\">1</span>")
                .contains("<span id=\"owed\">0 USDC</span>")
                .contains("<time id=\"next-billing\"")
                .contains("<table id=\"payments\" class=\"payments\"")
                .contains("<button type=\"button\" id=\"cancel-subscription\" class=\"button danger\" hidden>")
                .contains("<a id=\"return-link\" data-kind=\"success\" href=\"https://shop.example/welcome\">")
                .doesNotContain("id=\"enrol\"");
        String subscriptionId = link.get("chain_subscription_id").asString();
        assertThat(element(html, "calldata-cancel")).isEqualTo("0xc4d252f5" + subscriptionId.substring(2));
        assertThat(html).contains("data-chain-subscription-id=\"" + subscriptionId + "\"");
        List<String> payments = List.of(html.split("<tr class=\"payment\"", -1));
        assertThat(payments).hasSize(2);
        assertThat(payments.get(1)).contains("10 USDC", "confirmed");

        JsonNode status = status(id);
        assertThat(status.get("state").asString()).isEqualTo("active");
        assertThat(status.get("paid_periods").asInt()).isEqualTo(1);
        assertThat(status.get("payments").asInt()).isEqualTo(1);
        assertThat(status.get("chain_status").asString()).isEqualTo("subscribed");
        assertThat(status.has("next_billing_at")).isTrue();

        // The same link again: the invitation is used, and the page's kit says so.
        JsonNode used = read(as(
                        null,
                        HttpMethod.GET,
                        "/checkout/subscribe/prepare?subscriber_id=" + id + "&wallet_address=" + WALLET)
                .exchange()
                .expectStatus()
                .isEqualTo(409));
        assertThat(used.get("code").asString()).isEqualTo("already_enrolled");

        // The wallet cancels on the contract; once the watcher reports it the page says so.
        TransactionReceipt cancelled = contractCall(WALLET, "cancel", subscriptionId);
        reportLogs(cancelled);
        String after = html(id);
        assertThat(state(after)).isEqualTo("cancelled");
        assertThat(after)
                .contains("data-terminal=\"true\"")
                .doesNotContain("id=\"cancel-subscription\"")
                .contains("<a id=\"return-link\" data-kind=\"failure\" href=\"https://shop.example/bye\">")
                .contains("<tr class=\"payment\"");
        assertThat(status(id).get("terminal").asBoolean()).isTrue();
    }

    @Test
    void theEventStreamSendsTheStatusAndEachChangeAndEndsWithTheState() {
        JsonNode[] made = invitation(newMerchant(), amountPlan("Streamed"), Map.of());
        String id = made[1].get("id").asString();
        Flux<ServerSentEvent<String>> events = as(
                        null, HttpMethod.GET, "/checkout/subscribe/events?subscriber_id=" + id)
                .accept(MediaType.TEXT_EVENT_STREAM)
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(new ParameterizedTypeReference<ServerSentEvent<String>>() {})
                .getResponseBody()
                .filter(event -> "status".equals(event.event()));

        StepVerifier.create(events.map(
                        event -> json.readTree(event.data()).get("state").asString()))
                .expectNext("invitation")
                .then(() -> send(
                                null,
                                HttpMethod.POST,
                                "/checkout/subscribe/enrol",
                                Map.of("subscriber_id", id, "wallet_address", WALLET, "subscribe_hash", HASH))
                        .expectStatus()
                        .isCreated())
                .expectNext("pending")
                .thenCancel()
                .verify(Duration.ofSeconds(30));
    }
}
