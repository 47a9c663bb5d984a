package dev.cryptopay.paymentlinks.checkout;

import static dev.cryptopay.checkoutui.PageChecks.assertSecurityHeaders;
import static dev.cryptopay.checkoutui.PageChecks.assertUncached;
import static dev.cryptopay.checkoutui.PageChecks.body;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /checkout/payment_link/qr.svg?payment_id=}: the QR code of a link's {@code payment_url} as an SVG image
 * (what the merchant dashboard shows), read back with ZXing's reader as a phone would read it.
 */
class CheckoutAddressQrCodeTest extends CheckoutTestBase {

    private WebTestClient.ResponseSpec qrCode(String query) {
        return asEncoded(null, HttpMethod.GET, "/checkout/payment_link/qr.svg" + query)
                // What Chromium asks an <img> for.
                .header("Accept", "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8")
                .exchange();
    }

    @Test
    void theImageIsTheQrCodeOfTheLinksPaymentUrl() {
        JsonNode link = link(merchantWithKey(), "10.5");
        WebTestClient.ResponseSpec response = qrCode(
                        "?payment_id=" + link.get("id").asString())
                .expectStatus()
                .isOk();
        response.expectHeader()
                .contentType("image/svg+xml;charset=utf-8")
                .expectHeader()
                .valueEquals("Cache-Control", "max-age=86400, public");
        assertSecurityHeaders(response);
        String svg = body(response);

        String paymentUrl = link.get("payment_url").asString();
        assertThat(paymentUrl)
                .endsWith("/payment_link?payment_id=" + link.get("id").asString());
        assertThat(SvgQrDecoder.decode(SvgQrDecoder.svgOf(svg)))
                .as("the checkout's address, not the payment request the page's own code carries")
                .isEqualTo(paymentUrl)
                .isNotEqualTo(link.get("payment_uri").asString());
        assertThat(svg)
                .as("an SVG document of its own, drawn as the checkout draws its code")
                .startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"")
                .endsWith("</svg>")
                .isEqualTo(QrCodeSvg.render(paymentUrl, "QR code of the checkout address " + paymentUrl, "qr-code"))
                .doesNotContain("style", "script", "href");
    }

    @Test
    void aLinkWithoutADepositAddressOrCancelledHasItsCodeToo() {
        // No receiving key: no payment request, but the checkout exists (and says so); a cancelled link's checkout too.
        MerchantIdentity merchant = newMerchant();
        JsonNode link = createOk(merchant, Map.of("payment_name", "Tea", "amount", 3, "currency", "USDC"));
        String id = link.get("id").asString();
        assertThat(link.has("payment_uri")).isFalse();
        assertThat(SvgQrDecoder.decode(
                        body(qrCode("?payment_id=" + id).expectStatus().isOk())))
                .isEqualTo(link.get("payment_url").asString());

        delete(merchant, "/payment_links/" + id).expectStatus().isOk();
        assertThat(SvgQrDecoder.decode(
                        body(qrCode("?payment_id=" + id).expectStatus().isOk())))
                .isEqualTo(link.get("payment_url").asString());
    }

    @Test
    void unknownMalformedOrMissingIdsAreNotFoundAndNotKept() {
        for (String query : new String[] {
            "?payment_id=" + UUID.randomUUID(), "?payment_id=not-a-uuid", "?payment_id=%00%3Csvg%3E", ""
        }) {
            WebTestClient.ResponseSpec response = qrCode(query).expectStatus().isNotFound();
            assertUncached(response).expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON);
            JsonNode problem = read(response);
            assertThat(problem.get("message").asString()).as(query).isEqualTo("Payment not found");
        }
    }
}
