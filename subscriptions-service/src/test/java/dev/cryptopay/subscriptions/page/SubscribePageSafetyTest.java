package dev.cryptopay.subscriptions.page;

import static dev.cryptopay.checkoutui.PageChecks.assertAsset;
import static dev.cryptopay.checkoutui.PageChecks.assertPageMarkup;
import static dev.cryptopay.checkoutui.PageChecks.assertUncached;
import static dev.cryptopay.checkoutui.PageChecks.body;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/**
 * What the subscribe page must never do: run injected markup, show the merchant's private fields, go without its
 * headers, or answer a broken link with anything but a 400 or 404 page.
 */
class SubscribePageSafetyTest extends SubscribePageTestBase {

    @Test
    void markupInThePlanAndTheCustomerNameIsEscaped() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> terms = amountPlan("<script>alert('plan')</script>");
        terms.put("description", "\"><img src=x onerror=alert(1)> & <b>bold</b>");
        JsonNode[] made = invitation(
                merchant, terms, Map.of("customer_name", "<script>alert(\"name\")</script>\"><img onerror=x>"));
        String html = html(made[1].get("id").asString());

        assertThat(html)
                .contains("<h1 id=\"plan-name\">&lt;script&gt;alert(&#39;plan&#39;)&lt;/script&gt;</h1>")
                .contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &lt;b&gt;bold&lt;/b&gt;")
                .contains("<p id=\"customer\">For &lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;&quot;&gt;"
                        + "&lt;img onerror=x&gt;</p>")
                .contains("<title>Invitation to subscribe · &lt;script&gt;")
                .doesNotContain("<script>alert")
                .doesNotContain("<img")
                .doesNotContain("<b>bold");
        // The status JSON carries the plan's name as text, for the script to set as text.
        assertThat(status(made[1].get("id").asString()).get("detail").asString())
                .contains("<script>alert('plan')</script>");
    }

    @Test
    void pagesHaveNoInlineScriptStyleOrHandlerAndOneHeading() {
        JsonNode[] made = invitation(newMerchant(), amountPlan("Plain"), Map.of());
        for (String html : new String[] {
            html(made[1].get("id").asString()), body(page(UUID.randomUUID().toString())), body(page("not-a-uuid"))
        }) {
            assertPageMarkup(html);
        }
    }

    @Test
    void theMerchantsPrivateFieldsNeverReachTheCustomer() {
        MerchantIdentity merchant = newMerchant();
        Map<String, Object> invite = new LinkedHashMap<>();
        invite.put("customer_id", "CUST-PRIVATE-4242");
        invite.put("webhook_metadata", Map.of("internal_ref", "META-PRIVATE-9999"));
        JsonNode[] made = invitation(merchant, amountPlan("Private"), invite);
        String id = made[1].get("id").asString();

        for (String text : new String[] {html(id), status(id).toString()}) {
            assertThat(text)
                    .doesNotContain("CUST-PRIVATE-4242")
                    .doesNotContain("META-PRIVATE-9999")
                    .doesNotContain("internal_ref")
                    .doesNotContain(merchant.merchantId().toString());
        }
    }

    @Test
    void everyPageResponseCarriesTheSecurityHeaders() {
        String id = invitation(newMerchant(), amountPlan("Headers"), Map.of())[1]
                .get("id")
                .asString();
        assertUncached(page(id).expectStatus().isOk()).expectHeader().contentType("text/html;charset=utf-8");
        assertUncached(as(null, HttpMethod.GET, "/checkout/subscribe/status?subscriber_id=" + id)
                .exchange()
                .expectStatus()
                .isOk());
        assertUncached(page(UUID.randomUUID().toString()).expectStatus().isNotFound());
        assertUncached(page("x").expectStatus().isBadRequest());
        assertUncached(as(null, HttpMethod.GET, "/checkout/subscribe/status")
                .exchange()
                .expectStatus()
                .isBadRequest());
    }

    @Test
    void unknownIdsAnswer404AndMalformedOnes400() {
        for (String uri : new String[] {"/checkout/subscribe?subscriber_id=" + UUID.randomUUID()}) {
            String html = body(as(null, HttpMethod.GET, uri)
                    .exchange()
                    .expectStatus()
                    .isNotFound()
                    .expectHeader()
                    .contentType("text/html;charset=utf-8"));
            assertThat(html).as(uri).contains("<h1 id=\"state-title\">Invitation not found</h1>");
        }
        for (String uri : new String[] {
            "/checkout/subscribe", "/checkout/subscribe?subscriber_id=not-a-uuid", "/checkout/subscribe?subscriber_id="
        }) {
            String html = body(as(null, HttpMethod.GET, uri)
                    .exchange()
                    .expectStatus()
                    .isBadRequest()
                    .expectHeader()
                    .contentType("text/html;charset=utf-8"));
            assertThat(html).as(uri).contains("<h1 id=\"state-title\">Incomplete subscription link</h1>");
        }
        String encoded = body(asEncoded(null, HttpMethod.GET, "/checkout/subscribe?subscriber_id=%00%3Cscript%3E")
                .exchange()
                .expectStatus()
                .isBadRequest());
        assertThat(encoded).doesNotContain("<script>");

        for (String uri : new String[] {
            "/checkout/subscribe/status?subscriber_id=" + UUID.randomUUID(),
            "/checkout/subscribe/events?subscriber_id=" + UUID.randomUUID()
        }) {
            JsonNode problem =
                    read(as(null, HttpMethod.GET, uri).exchange().expectStatus().isNotFound());
            assertThat(problem.get("message").asString()).as(uri).isEqualTo("Subscriber not found");
        }
        for (String uri : new String[] {
            "/checkout/subscribe/status?subscriber_id=123", "/checkout/subscribe/status", "/checkout/subscribe/events"
        }) {
            JsonNode problem =
                    read(as(null, HttpMethod.GET, uri).exchange().expectStatus().isBadRequest());
            assertThat(problem.get("code").asString()).as(uri).isEqualTo("validation_failed");
        }
        assertThat(read(as(
                                        null,
                                        HttpMethod.GET,
                                        "/checkout/subscribe/prepare?subscriber_id=" + UUID.randomUUID()
                                                + "&wallet_address=" + WALLET)
                                .exchange()
                                .expectStatus()
                                .isNotFound())
                        .get("message")
                        .asString())
                .isEqualTo("Subscriber not found");
        as(null, HttpMethod.GET, "/checkout/subscribe/prepare?subscriber_id=x&wallet_address=0x1")
                .exchange()
                .expectStatus()
                .isBadRequest();
    }

    @Test
    void assetsAreTheSharedOnesServedWithTheirTypesAndLongCacheLifetimes() {
        String html = html(invitation(newMerchant(), amountPlan("Assets"), Map.of())[1]
                .get("id")
                .asString());
        assertThat(html)
                .containsPattern("<link rel=\"stylesheet\" href=\"subscribe/assets/checkout.css\\?v=[0-9a-f]{16}\">")
                .containsPattern("<script src=\"subscribe/assets/subscribe.js\\?v=[0-9a-f]{16}\" defer></script>");

        String script = assertAsset(
                as(null, HttpMethod.GET, "/checkout/subscribe/assets/subscribe.js")
                        .exchange(),
                "text/javascript;charset=utf-8");
        assertThat(script)
                .as("checkout-ui's wallet and live status, then the page's own code")
                .contains("const cryptopayWallet", "eip6963:requestProvider", "const cryptopayLive", "EventSource")
                .contains("subscribe/prepare", "0xc4d252f5");

        String css = assertAsset(
                as(null, HttpMethod.GET, "/checkout/subscribe/assets/checkout.css")
                        .exchange(),
                "text/css;charset=utf-8");
        assertThat(css).contains(":focus-visible", ".terms");
    }
}
