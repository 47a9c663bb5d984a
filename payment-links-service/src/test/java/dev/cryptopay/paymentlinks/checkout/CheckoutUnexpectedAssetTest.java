package dev.cryptopay.paymentlinks.checkout;

import static dev.cryptopay.checkoutui.PageChecks.state;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.JsonNode;

/**
 * A checkout whose address received another asset than the link's says what arrived and that it was not counted, on
 * the page and in the status the live updates compare, escaped like every other text; what is returned is no longer
 * mentioned.
 */
class CheckoutUnexpectedAssetTest extends CheckoutTestBase {

    private static final String ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    @Autowired
    DatabaseClient database;

    private void reportOther(String linkId, String hash, int logIndex, String token, String amount, String status) {
        reportTransaction(
                        linkId,
                        "{\"network\":\"Local dev chain\",\"tx_hash\":\"" + hash + "\"," + transfer(logIndex, token)
                                + ",\"payer_address\":\"" + ALICE + "\",\"crypto_amount\":" + amount
                                + ",\"status\":\"" + status + "\",\"confirmations\":1}")
                .expectStatus()
                .is2xxSuccessful();
    }

    @Test
    void theCheckoutNamesWhatArrivedInAnotherAssetAndThatItWasNotCounted() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode link = link(merchant, "10");
        String id = link.get("id").asString();
        assertThat(html(id)).doesNotContain("id=\"unexpected-asset\"");
        assertThat(status(id).has("unexpected_asset_notice")).isFalse();

        String usdt = "0x" + "c1".repeat(32);
        reportOther(id, usdt, 3, TEST_USDT, "5", "pending");
        String one = "We received 5 USDT, but this link takes USDC. Contact the merchant — it was not counted.";
        String html = html(id);
        assertThat(state(html)).as("it is no payment of the link").isEqualTo("awaiting_payment");
        assertThat(html).contains("<p id=\"unexpected-asset\" class=\"message error\">" + one + "</p>");
        assertThat(status(id).get("unexpected_asset_notice").asString()).isEqualTo(one);

        reportOther(id, usdt, 3, TEST_USDT, "5", "confirmed");
        clock.advance(Duration.ofSeconds(1));
        reportOther(id, "0x" + "c2".repeat(32), -1, null, "0.01", "confirmed");
        String two = "We received 5 USDT and 0.01 ETH, but this link takes USDC. Contact the merchant — they were not "
                + "counted.";
        assertThat(html(id)).contains(">" + two + "</p>");
        assertThat(status(id).get("unexpected_asset_notice").asString()).isEqualTo(two);

        // The names are escaped like every other text on the page.
        database.sql("UPDATE link_transaction SET asset = '<b>ETH</b>' WHERE payment_link_id = :link "
                        + "AND token_contract IS NULL")
                .bind("link", UUID.fromString(id))
                .then()
                .block();
        assertThat(html(id))
                .contains("5 USDT and 0.01 &lt;b&gt;ETH&lt;/b&gt;, but")
                .doesNotContain("<b>ETH");

        // Returned to its sender, the USDT is no longer at the address.
        String transactionId = null;
        for (JsonNode transaction : read(get(merchant, "/payment_links/" + id)
                        .expectStatus()
                        .isOk())
                .get("data")
                .get("transactions")) {
            if (TEST_USDT.equals(transaction.path("token_contract").asString(""))) {
                transactionId = transaction.get("id").asString();
            }
        }
        refund(merchant, id, "{\"transaction_id\":\"" + transactionId + "\"}")
                .expectStatus()
                .isCreated();
        reportOutgoing(
                        id,
                        "{\"network\":\"Local dev chain\",\"tx_hash\":\"" + "0x" + "c3".repeat(32) + "\","
                                + transfer(0, TEST_USDT) + ",\"from_address\":\""
                                + link.get("deposit_address").asString() + "\",\"to_address\":\"" + ALICE
                                + "\",\"crypto_amount\":5,\"status\":\"confirmed\",\"confirmations\":12}")
                .expectStatus()
                .isCreated();
        assertThat(status(id).get("unexpected_asset_notice").asString())
                .isEqualTo("We received 0.01 <b>ETH</b>, but this link takes USDC. Contact the merchant — it was not "
                        + "counted.");
    }
}
