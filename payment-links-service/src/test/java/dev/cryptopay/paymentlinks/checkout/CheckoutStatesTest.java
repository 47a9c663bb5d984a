package dev.cryptopay.paymentlinks.checkout;

import static dev.cryptopay.checkoutui.PageChecks.state;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Each checkout state, reached through the real routes: links created, transactions reported, the clock moved. */
class CheckoutStatesTest extends CheckoutTestBase {

    private static final String REFRESH = "<noscript><meta http-equiv=\"refresh\" content=\"10\"></noscript>";

    @Test
    void awaitingPaymentShowsEverythingNeededToPay() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode link = link(
                merchant,
                "2.5",
                "USDC",
                Map.of(
                        "description", "Loose leaf, 100 g",
                        "product_name", "Sencha",
                        "cancel_url", "https://shop.example/cart"));
        String id = link.get("id").asString();
        String address = link.get("deposit_address").asString();
        String html = html(id);

        assertThat(state(html)).isEqualTo("awaiting_payment");
        assertThat(html)
                .contains("<h2 id=\"state-title\">Awaiting payment</h2>")
                .contains("<h1 id=\"payment-name\">Green tea</h1>")
                .contains("<p id=\"product-name\" class=\"product\">Sencha</p>")
                .contains("<p id=\"description\" class=\"description\">Loose leaf, 100 g</p>")
                .contains("<span id=\"amount\" class=\"value\">2.5</span> USDC")
                .contains("<dd id=\"network\">Local dev chain (chain id 31337)</dd>")
                .contains("<code id=\"deposit-address\">" + address + "</code>")
                .contains("id=\"copy-address\" data-copy=\"" + address + "\"")
                .contains("id=\"copy-amount\" data-copy=\"2.5\"")
                .contains("data-chain-id=\"31337\" data-chain-id-hex=\"0x7a69\"")
                .contains("data-deposit-address=\"" + address + "\"")
                .contains("data-token-contract=\"" + link.get("token_contract").asString() + "\"")
                .contains("data-amount-base-units=\"2500000\"")
                .contains("<a id=\"payment-uri\" class=\"button secondary\" href=\""
                        + link.get("payment_uri").asString().replace("&", "&amp;") + "\">")
                .contains("<button type=\"button\" id=\"pay-with-wallet\" class=\"button\" hidden>")
                .contains("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"qr-code\"")
                .contains("data-expires-in=\"86400\">1 d 00:00:00</time>")
                .contains("<a id=\"cancel-link\" href=\"https://shop.example/cart\">Cancel and return</a>")
                .contains(REFRESH);
    }

    @Test
    void aTransactionInFlightShowsItsConfirmations() {
        MerchantIdentity merchant = merchantWithKey();
        String id = link(merchant, "2.5").get("id").asString();
        report(id, "0xd1", "2.5", "pending", 2, 12);

        String html = html(id);
        assertThat(state(html)).isEqualTo("detected");
        assertThat(html)
                .contains("<h2 id=\"state-title\">Payment detected</h2>")
                .contains("<p id=\"confirmations\" class=\"confirmations\">2 of 12 confirmations</p>")
                .contains("data-confirmations=\"2\" data-required-confirmations=\"12\"")
                .contains(REFRESH)
                .as("a one-use link in flight hides the address, so nobody pays twice")
                .doesNotContain("id=\"deposit-address\"");

        report(id, "0xd1", "2.5", "pending", 5, null);
        assertThat(html(id)).contains("5 of 12 confirmations");

        String unknown = link(merchant, "1").get("id").asString();
        report(unknown, "0xd2", "1", "pending", 3, null);
        assertThat(html(unknown)).contains("<p id=\"confirmations\" class=\"confirmations\">3 confirmations</p>");
    }

    @Test
    void aMultiUseLinkKeepsShowingTheAddressWhileAPaymentIsInFlight() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode link = link(merchant, "4", "USDC", Map.of("max_uses", 3));
        String id = link.get("id").asString();
        report(id, "0xm1", "4", "pending", 1, 6);

        String html = html(id);
        assertThat(state(html)).isEqualTo("detected");
        assertThat(html)
                .contains("1 of 6 confirmations")
                .contains("<code id=\"deposit-address\">"
                        + link.get("deposit_address").asString() + "</code>");
        report(id, "0xm1", "4", "confirmed", 6, 6);
        assertThat(state(html(id))).as("one of three uses taken").isEqualTo("awaiting_payment");
    }

    @Test
    void paidContinuesToTheSuccessUrlWithAndWithoutJavaScript() {
        MerchantIdentity merchant = merchantWithKey();
        String id = link(merchant, "2.5", "USDC", Map.of("success_url", "https://shop.example/thanks?order=7&x=1"))
                .get("id")
                .asString();
        report(id, "0xp1", "2.5", "pending", 1, 3);
        report(id, "0xp1", "2.5", "confirmed", 3, 3);

        String html = html(id);
        assertThat(state(html)).isEqualTo("paid");
        assertThat(html)
                .contains("<h2 id=\"state-title\">Payment complete</h2>")
                .contains("Your payment of 2.5 USDC has been received.")
                .contains("<noscript><meta http-equiv=\"refresh\" "
                        + "content=\"5;url=https://shop.example/thanks?order=7&amp;x=1\"></noscript>")
                .contains("<a id=\"continue\" class=\"button\" href=\"https://shop.example/thanks?order=7&amp;x=1\" "
                        + "data-redirect-after=\"5\">Continue</a>")
                .doesNotContain(REFRESH)
                .doesNotContain("id=\"payment\"")
                .doesNotContain("id=\"countdown\"");
    }

    @Test
    void anUnderpaymentAsksForTheRemainderWhichThenCompletesThePayment() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode link = link(merchant, "2.5");
        String id = link.get("id").asString();
        report(id, "0xu1", "1", "confirmed", 12, 12);

        String html = html(id);
        assertThat(state(html)).isEqualTo("underpaid");
        String remainder = link.get("payment_uri").asString().replace("uint256=2500000", "uint256=1500000");
        assertThat(html)
                .contains("<h2 id=\"state-title\">Partial payment received</h2>")
                .contains("1 USDC of 2.5 USDC has been received. Send the remaining 1.5 USDC to complete the payment.")
                .contains("<span id=\"amount\" class=\"value\">1.5</span> USDC")
                .contains("data-amount-base-units=\"1500000\"")
                .contains("href=\"" + remainder.replace("&", "&amp;") + "\"")
                .contains(REFRESH);
        assertThat(status(id).get("amount_due").asString()).isEqualTo("1.5");

        report(id, "0xu2", "1.5", "confirmed", 12, 12);
        assertThat(state(html(id))).isEqualTo("paid");
        JsonNode after = read(get(merchant, "/payment_links/" + id)
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(after.get("payment_status").asString()).isEqualTo("completed");
        assertThat(after.get("current_uses").asInt()).isEqualTo(1);
    }

    @Test
    void anOverpaymentCompletesAndSaysTheMerchantHandlesRefunds() {
        MerchantIdentity merchant = merchantWithKey();
        String id = link(merchant, "2.5", "USDC", Map.of("success_url", "https://shop.example/thanks"))
                .get("id")
                .asString();
        report(id, "0xo1", "3", "confirmed", 12, 12);

        String html = html(id);
        assertThat(state(html)).isEqualTo("overpaid");
        assertThat(html)
                .contains("<h2 id=\"state-title\">Payment complete, overpaid</h2>")
                .contains("0.5 USDC more than the amount due was received. Refunds of the difference are handled by"
                        + " the merchant")
                .as("the customer reads the overpayment note before continuing")
                .contains("data-redirect-after=\"0\">Continue</a>")
                .doesNotContain("http-equiv=\"refresh\"");
    }

    @Test
    void expiredSaysALatePaymentMayStillBeRecordedAndToContactTheMerchant() {
        MerchantIdentity merchant = merchantWithKey();
        String id = link(
                        merchant,
                        "2.5",
                        "USDC",
                        Map.of(
                                "expires_at",
                                clock.instant().plus(Duration.ofHours(1)).toString()))
                .get("id")
                .asString();
        assertThat(html(id)).contains("data-expires-in=\"3600\">01:00:00</time>");
        clock.advance(Duration.ofHours(1).plusSeconds(1));

        String html = html(id);
        assertThat(state(html)).isEqualTo("expired");
        assertThat(html)
                .contains("<h2 id=\"state-title\">Payment link expired</h2>")
                .contains("A payment sent now may still be recorded late")
                .contains("contact the merchant")
                .doesNotContain("id=\"deposit-address\"")
                .doesNotContain(REFRESH);
    }

    @Test
    void cancelledTellsTheCustomerNotToPay() {
        MerchantIdentity merchant = merchantWithKey();
        String id = link(merchant, "2.5", "USDC", Map.of("cancel_url", "https://shop.example/cart"))
                .get("id")
                .asString();
        delete(merchant, "/payment_links/" + id).expectStatus().isOk();

        String html = html(id);
        assertThat(state(html)).isEqualTo("cancelled");
        assertThat(html)
                .contains("The merchant cancelled this payment request. Do not send a payment")
                .contains("<a id=\"cancel-link\" href=\"https://shop.example/cart\">Return to the merchant</a>")
                .doesNotContain("id=\"deposit-address\"");
    }

    @Test
    void aLinkWithoutDepositAddressSaysTheMerchantHasNotSetUpReceiving() {
        MerchantIdentity merchant = newMerchant();
        String id = link(merchant, "2.5").get("id").asString();

        String html = html(id);
        assertThat(state(html)).isEqualTo("not_set_up");
        assertThat(html)
                .contains("This merchant has not set up receiving payments yet")
                .doesNotContain("id=\"payment\"")
                .doesNotContain("id=\"pay-with-wallet\"")
                .doesNotContain("<svg");
    }

    @Test
    void aNativeCoinLinkIsPaidByValue() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode link = link(merchant, "0.25", "ETH", Map.of());
        String html = html(link.get("id").asString());
        assertThat(html)
                .contains("data-token-contract=\"\"")
                .contains("data-amount-base-units=\"250000000000000000\"")
                .contains("href=\"" + link.get("payment_uri").asString() + "\"")
                .doesNotContain("id=\"token-contract\"");
    }
}
