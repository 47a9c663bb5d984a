package dev.cryptopay.paymentlinks.paymentlink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The summary's USD total: the {@code fiat_amount} chain-watcher reports with confirmed transfers of the link's asset,
 * in {@code fiat_currency} USD, with the transfers it could not price counted apart ({@code unpriced_transactions});
 * unexpected assets and refunded money never count. Each transfer shows its own {@code fiat_amount}, null when unknown.
 */
class SummaryFiatTest extends PaymentLinksTestBase {

    private static final String ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    private String report(String id, String hash, String token, String crypto, String fiatMember, String status) {
        return read(reportTransaction(
                                id,
                                "{\"network\":\"Local dev chain\",\"tx_hash\":\"" + hash + "\","
                                        + transfer(token == null ? -1 : 0, token) + ",\"payer_address\":\"" + ALICE
                                        + "\",\"crypto_amount\":" + crypto + fiatMember + ",\"status\":\"" + status
                                        + "\",\"confirmations\":12}")
                        .expectStatus()
                        .is2xxSuccessful()) // 201 when new, 200 for a later report of the same transfer
                .get("data")
                .get("transaction")
                .get("id")
                .asString();
    }

    private JsonNode link(MerchantIdentity merchant, String id) {
        return read(get(merchant, "/payment_links/" + id).expectStatus().isOk()).get("data");
    }

    @Test
    void theUsdTotalCountsPricedTransfersOfTheLinksAssetAndSaysHowManyAreUnpriced() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode created =
                createOk(merchant, "{\"payment_name\":\"Desk\",\"amount\":10,\"currency\":\"USDC\",\"max_uses\":9}");
        String id = created.get("id").asString();
        String priced = report(id, "0xf1a1", TEST_USDC, "10", ",\"fiat_amount\":10.02", "confirmed");
        report(id, "0xf1a2", TEST_USDC, "10", ",\"fiat_amount\":null", "confirmed");
        report(id, "0xf1a3", TEST_USDC, "5", "", "confirmed");
        report(id, "0xf1a4", TEST_USDC, "10", ",\"fiat_amount\":9.99", "pending");
        report(id, "0xf1a5", TEST_USDT, "7", ",\"fiat_amount\":7.01", "confirmed");

        JsonNode link = link(merchant, id);
        JsonNode summary = link.get("summary");
        assertThat(summary.get("total_amount_received").decimalValue()).isEqualByComparingTo("10.02");
        assertThat(summary.get("fiat_currency").asString()).isEqualTo("USD");
        assertThat(summary.get("unpriced_transactions").asInt()).isEqualTo(2);
        assertThat(summary.get("total_amount_received_crypto").decimalValue()).isEqualByComparingTo("25");
        for (JsonNode transaction : link.get("transactions")) {
            assertThat(transaction.has("fiat_amount"))
                    .as("shown, null when unknown")
                    .isTrue();
        }
        JsonNode first = link.get("transactions").findParents("id").stream()
                .filter(transaction -> transaction.get("id").asString().equals(priced))
                .findFirst()
                .orElseThrow();
        assertThat(first.get("fiat_amount").decimalValue()).isEqualByComparingTo("10.02");
        assertThat(link.get("transactions").findValues("fiat_amount").stream().filter(JsonNode::isNull))
                .hasSize(2);

        // 4 of the priced 10 USDC returned: 6/10 of its USD value is left.
        as(merchant, org.springframework.http.HttpMethod.POST, "/payment_links/" + id + "/refunds")
                .contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .bodyValue("{\"transaction_id\":\"" + priced + "\",\"amount\":4}")
                .exchange()
                .expectStatus()
                .isCreated();
        reportOutgoing(id, outgoing("0xf1a6", created.get("deposit_address").asString(), ALICE, "4", "confirmed"))
                .expectStatus()
                .isCreated();
        summary = link(merchant, id).get("summary");
        assertThat(summary.get("total_amount_received").decimalValue()).isEqualByComparingTo("6.012");
        assertThat(summary.get("total_amount_received_crypto").decimalValue()).isEqualByComparingTo("21");
        assertThat(summary.get("unpriced_transactions").asInt()).isEqualTo(2);
    }

    @Test
    void theValueArrivesWithTheConfirmationOfATransferFirstReportedPending() {
        // chain-watcher's order for every payment: pending (no value yet), then confirmed with its USD value.
        MerchantIdentity merchant = merchantWithKey();
        JsonNode created = createOk(merchant, "{\"payment_name\":\"Lamp\",\"amount\":10,\"currency\":\"USDC\"}");
        String id = created.get("id").asString();
        String pending = report(id, "0xf2a1", TEST_USDC, "10", "", "pending");
        assertThat(link(merchant, id)
                        .get("summary")
                        .get("total_amount_received")
                        .decimalValue())
                .isEqualByComparingTo("0");

        String confirmed = report(id, "0xf2a1", TEST_USDC, "10", ",\"fiat_amount\":10.01", "confirmed");
        assertThat(confirmed).as("the same transfer").isEqualTo(pending);
        JsonNode link = link(merchant, id);
        assertThat(link.get("payment_status").asString()).isEqualTo("completed");
        assertThat(link.get("summary").get("total_amount_received").decimalValue())
                .isEqualByComparingTo("10.01");
        assertThat(link.get("summary").get("unpriced_transactions").asInt()).isZero();
        assertThat(link.get("transactions").get(0).get("fiat_amount").decimalValue())
                .isEqualByComparingTo("10.01");

        // A repeated confirmed report without a value keeps the recorded one.
        report(id, "0xf2a1", TEST_USDC, "10", "", "confirmed");
        assertThat(link(merchant, id)
                        .get("summary")
                        .get("total_amount_received")
                        .decimalValue())
                .isEqualByComparingTo("10.01");
    }
}
