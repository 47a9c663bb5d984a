package dev.cryptopay.paymentlinks.checkout;

import static dev.cryptopay.checkoutui.PageChecks.assertAsset;
import static dev.cryptopay.checkoutui.PageChecks.assertPageMarkup;
import static dev.cryptopay.checkoutui.PageChecks.assertUncached;
import static dev.cryptopay.checkoutui.PageChecks.body;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/** What the checkout must never do: run injected markup, show private fields, go without its headers, or fail. */
class CheckoutSafetyTest extends CheckoutTestBase {

    @Test
    void merchantTextIsEscaped() {
        MerchantIdentity merchant = merchantWithKey();
        String id = createOk(
                        merchant,
                        Map.of(
                                "payment_name", "<script>alert('x')</script>",
                                "amount", 1,
                                "currency", "USDC",
                                "description", "Tom & \"Jerry\" <b>bold</b>",
                                "product_name", "<img src=x onerror=alert(1)>"))
                .get("id")
                .asString();
        String html = html(id);

        assertThat(html)
                .contains("<h1 id=\"payment-name\">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</h1>")
                .contains("Tom &amp; &quot;Jerry&quot; &lt;b&gt;bold&lt;/b&gt;")
                .contains("&lt;img src=x onerror=alert(1)&gt;")
                .doesNotContain("<script>alert")
                .doesNotContain("<b>bold")
                .doesNotContain("<img");
    }

    @Test
    void pagesHaveNoInlineScriptStyleOrHandler() {
        MerchantIdentity merchant = merchantWithKey();
        String awaiting = link(merchant, "1", "USDC", Map.of("cancel_url", "https://shop.example/c"))
                .get("id")
                .asString();
        String paid = link(merchant, "1", "USDC", Map.of("success_url", "https://shop.example/s"))
                .get("id")
                .asString();
        report(paid, "0xi1", "1", "confirmed", 1, 1);
        for (String html : new String[] {
            html(awaiting), html(paid), body(page(UUID.randomUUID().toString()))
        }) {
            assertPageMarkup(html);
        }
    }

    @Test
    void privateFieldsOfTheLinkNeverReachTheCustomer() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode link = createOk(
                merchant,
                Map.of(
                        "payment_name",
                        "Tea",
                        "amount",
                        2,
                        "currency",
                        "USDC",
                        "customer_email",
                        "zelda.private@example.test",
                        "customer_name",
                        "Zelda Privatename",
                        "customer_id",
                        "CUST-PRIVATE-4242",
                        "order_id",
                        "ORD-PRIVATE-7777",
                        "webhook_metadata",
                        Map.of("internal_ref", "META-PRIVATE-9999"),
                        "origin",
                        "https://origin-private.example"));
        String id = link.get("id").asString();
        String html = html(id);
        String statusJson = status(id).toString();

        for (String text : new String[] {html, statusJson}) {
            assertThat(text)
                    .doesNotContain("zelda.private@example.test")
                    .doesNotContain("Zelda Privatename")
                    .doesNotContain("CUST-PRIVATE-4242")
                    .doesNotContain("ORD-PRIVATE-7777")
                    .doesNotContain("META-PRIVATE-9999")
                    .doesNotContain("internal_ref")
                    .doesNotContain("origin-private.example")
                    .doesNotContain(merchant.merchantId().toString());
        }
        assertThat(html).contains("Tea");
    }

    @Test
    void everyCheckoutResponseCarriesTheSecurityHeaders() {
        String id = link(merchantWithKey(), "1").get("id").asString();
        assertUncached(page(id).expectStatus().isOk()).expectHeader().contentType("text/html;charset=utf-8");
        assertUncached(as(null, HttpMethod.GET, "/checkout/payment_link/status?payment_id=" + id)
                .exchange()
                .expectStatus()
                .isOk());
        assertUncached(page(UUID.randomUUID().toString()).expectStatus().isNotFound());
    }

    @Test
    void unknownOrMalformedIdsAnswerTheNotFoundPage() {
        for (String uri : new String[] {
            "/checkout/payment_link?payment_id=" + UUID.randomUUID(),
            "/checkout/payment_link?payment_id=not-a-uuid",
            "/checkout/payment_link?payment_id=%00%3Cscript%3E",
            "/checkout/payment_link"
        }) {
            String html = body(asEncoded(null, HttpMethod.GET, uri)
                    .exchange()
                    .expectStatus()
                    .isNotFound()
                    .expectHeader()
                    .contentType("text/html;charset=utf-8"));
            assertThat(html).as(uri).contains("<h1 id=\"state-title\">Payment not found</h1>");
            assertThat(html).as(uri).doesNotContain("<script>");
        }
        for (String uri : new String[] {
            "/checkout/payment_link/status?payment_id=" + UUID.randomUUID(),
            "/checkout/payment_link/status?payment_id=123",
            "/checkout/payment_link/events?payment_id=" + UUID.randomUUID()
        }) {
            JsonNode problem =
                    read(as(null, HttpMethod.GET, uri).exchange().expectStatus().isNotFound());
            assertThat(problem.get("message").asString()).as(uri).isEqualTo("Payment not found");
        }
    }

    @Test
    void assetsAreServedWithTheirTypesAndLongCacheLifetimes() {
        String html = html(link(merchantWithKey(), "1").get("id").asString());
        assertThat(html)
                .containsPattern("<link rel=\"stylesheet\" href=\"assets/checkout.css\\?v=[0-9a-f]{16}\">")
                .containsPattern("<script src=\"assets/checkout.js\\?v=[0-9a-f]{16}\" defer></script>");

        String script = assertAsset(
                as(null, HttpMethod.GET, "/checkout/assets/checkout.js").exchange(), "text/javascript;charset=utf-8");
        assertThat(script).contains("eip6963:requestProvider").contains("EventSource");

        String css = assertAsset(
                as(null, HttpMethod.GET, "/checkout/assets/checkout.css").exchange(), "text/css;charset=utf-8");
        assertThat(css).contains(":focus-visible");
    }
}
