package dev.cryptopay.subscriptions.page;

import static dev.cryptopay.checkoutui.PageChecks.state;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/** What the page shows before enrolment, and every state that keeps a customer from enrolling. */
class SubscribePageStatesTest extends SubscribePageTestBase {

    @Test
    void anInvitationShowsTheTermsInWordsTheVerifiedSignatureAndHowToSubscribe() {
        MerchantIdentity merchant = newMerchant();
        JsonNode[] made = invitation(merchant, amountPlan("Coffee Club"), Map.of());
        String subscriberId = made[1].get("id").asString();

        String html = html(subscriberId);
        assertThat(state(html)).isEqualTo("invitation");
        assertThat(html)
                .contains("<h1 id=\"plan-name\">Coffee Club</h1>")
                .contains("<span id=\"price\">10 USDC every 30 days</span>")
                .contains("<p id=\"customer\">For Ada Lovelace</p>")
                .contains("<p id=\"test-mode\" class=\"badge\">")
                .contains("data-terminal=\"false\"");
        assertThat(element(html, "term-amount")).startsWith("Each payment: 10 USDC (token " + DEV_USDC + ")");
        assertThat(element(html, "term-interval")).isEqualTo("Billed every 30 days.");
        assertThat(element(html, "term-trial"))
                .isEqualTo("Free trial of 7 days: the first payment is taken when the trial ends.");
        assertThat(element(html, "term-grace")).contains("within 3 days");
        assertThat(element(html, "term-missed"))
                .startsWith("After 3 missed payments in a row the subscription is cancelled automatically");
        assertThat(element(html, "term-end")).startsWith("No end date");
        assertThat(element(html, "term-deadline")).startsWith("This invitation can be used until ");
        assertThat(element(html, "term-approval")).contains("up to 120 USDC (12 payments)");
        assertThat(element(html, "term-destination")).contains(DESTINATION);
        assertThat(html)
                .contains("<p id=\"signature\" class=\"verified\" data-verified=\"true\">")
                .contains("<p id=\"network\">Network: Local dev chain (chain id 31337)</p>")
                .contains("Offered by the merchant wallet <code>" + MERCHANT_ADDRESS + "</code>");

        // The by-hand instructions are exactly prepare's transactions (for a wallet that allowed the contract nothing),
        // and the form reports the subscribe one.
        allowContract(WALLET, java.math.BigInteger.ZERO);
        JsonNode kit = read(as(
                        null,
                        HttpMethod.GET,
                        "/public/subscriber/prepare?subscriber_id=" + subscriberId + "&wallet_address=" + WALLET)
                .exchange()
                .expectStatus()
                .isOk());
        assertThat(element(html, "calldata-approve"))
                .isEqualTo(kit.get("transactions").get(0).get("data").asString());
        assertThat(element(html, "calldata-subscribe"))
                .isEqualTo(kit.get("transactions").get(1).get("data").asString());
        assertThat(html)
                .contains("<form id=\"enrol-form\" method=\"post\" action=\"subscribe/enrol\">")
                .contains("<input type=\"hidden\" name=\"subscriber_id\" value=\"" + subscriberId + "\">")
                .contains("<details id=\"by-hand\" class=\"by-hand\" open>")
                .contains("data-chain-id-hex=\"0x7a69\"")
                .contains("data-amount=\"10000000\"")
                .contains("data-trial-period=\"604800\"");

        // The page's own kit route answers exactly what the public prepare route does.
        JsonNode pageKit = read(as(
                        null,
                        HttpMethod.GET,
                        "/checkout/subscribe/prepare?subscriber_id=" + subscriberId + "&wallet_address=" + WALLET)
                .exchange()
                .expectStatus()
                .isOk());
        assertThat(pageKit).isEqualTo(kit);

        JsonNode status = status(subscriberId);
        assertThat(status.get("state").asString()).isEqualTo("invitation");
        assertThat(status.get("terminal").asBoolean()).isFalse();
        assertThat(status.get("paid_periods").asInt()).isZero();
        assertThat(status.has("chain_status")).isFalse();
    }

    @Test
    void termsWithoutTrialOrAutomaticCancellationSaySo() {
        Map<String, Object> terms = noTrialPlan("Daily news");
        terms.put("interval", 86400);
        terms.put("auto_cancel_after_missed", 0);
        terms.put("max_arrears", 0);
        terms.put("subscribe_deadline", 0);
        String html =
                html(invitation(newMerchant(), terms, Map.of())[1].get("id").asString());

        assertThat(element(html, "term-interval")).isEqualTo("Billed every day.");
        assertThat(element(html, "term-trial")).isEqualTo("No trial: the first payment is taken when you subscribe.");
        assertThat(element(html, "term-grace"))
                .as("the contract's minimum grace")
                .contains("within 1 hour;");
        assertThat(element(html, "term-missed")).startsWith("Missed payments are recorded as owed");
        assertThat(html).doesNotContain("id=\"term-deadline\"");
        assertThat(element(html, "step-subscribe")).contains("the first payment of 10 USDC is taken now");
    }

    @Test
    void anExpiredInvitationADeprecatedPlanAndAWithdrawnInvitationOfferNoEnrolment() {
        MerchantIdentity merchant = newMerchant();
        JsonNode[] expiring = invitation(merchant, amountPlan("Expiring"), Map.of());
        String expired = expiring[1].get("id").asString();
        clock.advance(Duration.ofDays(2));
        try {
            String html = html(expired);
            assertThat(state(html)).isEqualTo("invitation_expired");
            assertThat(html).contains("data-terminal=\"true\"").doesNotContain("id=\"enrol\"");
            assertThat(element(html, "state-detail")).startsWith("This invitation expired on ");
        } finally {
            clock.advance(Duration.ofDays(-2));
        }

        JsonNode[] deprecating = invitation(merchant, amountPlan("Closing"), Map.of());
        as(
                        merchant,
                        HttpMethod.DELETE,
                        "/subscriptions/plans/" + deprecating[0].get("id").asString())
                .exchange()
                .expectStatus()
                .isOk();
        String deprecated = html(deprecating[1].get("id").asString());
        assertThat(state(deprecated)).isEqualTo("plan_deprecated");
        assertThat(deprecated).doesNotContain("id=\"enrol\"").doesNotContain("id=\"subscribe-with-wallet\"");

        JsonNode[] withdrawing = invitation(
                merchant, amountPlan("Withdrawn"), Map.of("failure_return_url", "https://shop.example/sorry"));
        String withdrawnId = withdrawing[1].get("id").asString();
        send(merchant, HttpMethod.PUT, "/subscriber/" + withdrawnId, Map.of("status", "cancelled"))
                .expectStatus()
                .isOk();
        String withdrawn = html(withdrawnId);
        assertThat(state(withdrawn)).isEqualTo("cancelled");
        assertThat(element(withdrawn, "state-detail")).startsWith("This invitation was withdrawn.");
        assertThat(withdrawn)
                .contains("<a id=\"return-link\" data-kind=\"failure\" href=\"https://shop.example/sorry\">");
        assertThat(status(withdrawnId).get("terminal").asBoolean()).isTrue();
    }

    @Test
    void aPlanRevokedOnChainIsShownRevoked() {
        MerchantIdentity merchant = newMerchant();
        // Terms no other test signs: a plan's id on chain is the hash of its terms, and the dev chain is shared.
        Map<String, Object> terms = amountPlan("Revoked");
        terms.put(
                "amount",
                String.valueOf(10_000_000 + ThreadLocalRandom.current().nextInt(1, 1_000_000)));
        JsonNode[] made = invitation(merchant, terms, Map.of());
        reportLogs(contractCall(
                MERCHANT_ADDRESS, "revokePlan", made[0].get("plan_id").asString()));

        String html = html(made[1].get("id").asString());
        assertThat(state(html)).isEqualTo("plan_revoked");
        assertThat(element(html, "state-detail"))
                .isEqualTo("The merchant revoked this plan: it can no longer be" + " subscribed to.");
    }

    @Test
    void theMerchantsNameIsShownAsTheGatewayForwardsItAndEscaped() {
        MerchantIdentity merchant = newMerchant();
        String encoded = URLEncoder.encode("Café Zoë <b>&</b>", StandardCharsets.UTF_8);
        JsonNode plan = read(as(merchant, HttpMethod.POST, "/subscriptions/plans/")
                .header("X-Merchant-Name", encoded)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(json.writeValueAsString(signed(merchant, amountPlan("Named"), MERCHANT_KEY)))
                .exchange()
                .expectStatus()
                .isCreated());
        String subscriber = createSubscriber(merchant, plan.get("id").asString(), "Ada", "ada@example.com")
                .get("id")
                .asString();

        String html = html(subscriber);
        assertThat(html)
                .contains("<p id=\"merchant-name\" class=\"merchant\">Offered by Café Zoë &lt;b&gt;&amp;&lt;/b&gt;</p>")
                .contains("Offered by Café Zoë &lt;b&gt;&amp;&lt;/b&gt;, whose wallet is <code>" + MERCHANT_ADDRESS);

        // Without a forwarded name (another merchant, never named), the wallet alone names the merchant.
        String unnamed = html(invitation(newMerchant(), amountPlan("Unnamed"), Map.of())[1]
                .get("id")
                .asString());
        assertThat(unnamed).doesNotContain("id=\"merchant-name\"").contains("Offered by the merchant wallet <code>");
    }

    @Test
    void anInvitationOffersAWayBackWithoutSubscribing() {
        JsonNode[] made = invitation(
                newMerchant(),
                amountPlan("Way back"),
                Map.of(
                        "success_return_url", "https://shop.example/welcome",
                        "failure_return_url", "https://shop.example/later?x=1&y=2"));
        String html = html(made[1].get("id").asString());
        assertThat(html)
                .contains("<a id=\"return-link\" data-kind=\"failure\" href=\"https://shop.example/later?x=1&amp;y=2\">"
                        + "Not now: return to the merchant</a>")
                .doesNotContain("https://shop.example/welcome");
    }
}
