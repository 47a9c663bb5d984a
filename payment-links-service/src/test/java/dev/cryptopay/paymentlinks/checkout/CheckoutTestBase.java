package dev.cryptopay.paymentlinks.checkout;

import static dev.cryptopay.checkoutui.PageChecks.body;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Shortcuts for checkout tests: a merchant with a registered receiving key, links created through the merchant route,
 * transactions reported through the internal route, and the public checkout routes called as the gateway forwards
 * them (an internal token, no merchant identity).
 */
abstract class CheckoutTestBase extends PaymentLinksTestBase {

    /** Creates a link of {@code amount} {@code currency} with the extra fields given; answers its data. */
    protected JsonNode link(MerchantIdentity merchant, String amount, String currency, Map<String, Object> extra) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("payment_name", "Green tea");
        body.put("amount", new BigDecimal(amount));
        body.put("currency", currency);
        body.putAll(extra);
        return createOk(merchant, body);
    }

    protected JsonNode link(MerchantIdentity merchant, String amount) {
        return link(merchant, amount, "USDC", Map.of());
    }

    /** Reports a transaction as a chain watcher does; {@code required} may be null. */
    protected void report(
            String linkId, String hash, String amount, String status, int confirmations, Integer required) {
        String body = "{\"network\":\"Local dev chain\",\"tx_hash\":\"" + hash + "\"," + transfer(0, TEST_USDC)
                + ",\"payer_address\":\"0xPAYER\","
                + "\"crypto_amount\":" + amount + ",\"status\":\"" + status + "\",\"confirmations\":" + confirmations
                + (required == null ? "" : ",\"required_confirmations\":" + required) + "}";
        reportTransaction(linkId, body).expectStatus().is2xxSuccessful();
    }

    /** The checkout page's response. */
    protected WebTestClient.ResponseSpec page(String paymentId) {
        return as(null, HttpMethod.GET, "/checkout/payment_link?payment_id=" + paymentId)
                .accept(MediaType.TEXT_HTML)
                .exchange();
    }

    /** The checkout page of a link that exists, as text. */
    protected String html(String paymentId) {
        return body(page(paymentId).expectStatus().isOk());
    }

    /** The status route's JSON for a link that exists. */
    protected JsonNode status(String paymentId) {
        return read(as(null, HttpMethod.GET, "/checkout/payment_link/status?payment_id=" + paymentId)
                .exchange()
                .expectStatus()
                .isOk());
    }
}
