package dev.cryptopay.paymentlinks.deposit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * A merchant's minimum for {@code wallet.deposit}: dust sent to a deposit address (another token, or after the link
 * stopped taking payments) is recorded on the link but sends no webhook; a deposit worth the minimum, or of unknown
 * value, does. Per merchant and mode; validated like every body.
 */
class DepositSettingsTest extends PaymentLinksTestBase {

    private static final String PATH = "/payment_links/deposit_settings";

    @Autowired
    DatabaseClient database;

    @Test
    void everyDepositIsAnnouncedUntilTheMerchantSetsAMinimum() {
        MerchantIdentity merchant = newMerchant();
        JsonNode defaults = read(get(merchant, PATH).expectStatus().isOk());
        assertThat(defaults.get("message").asString()).isEqualTo("Deposit settings retrieved");
        assertThat(defaults.get("data").get("deposit_webhook_minimum_usd").decimalValue())
                .isZero();
        assertThat(defaults.get("data").get("updated_at").isNull()).isTrue();

        JsonNode set = read(put(merchant, "{\"deposit_webhook_minimum_usd\":1.50}")
                .expectStatus()
                .isOk());
        assertThat(set.get("message").asString()).isEqualTo("Deposit settings updated");
        assertThat(set.get("data").get("deposit_webhook_minimum_usd").decimalValue())
                .isEqualByComparingTo("1.5");
        assertThat(set.get("data").get("updated_at").isNull()).isFalse();
        assertThat(read(get(merchant, PATH).expectStatus().isOk())
                        .get("data")
                        .get("deposit_webhook_minimum_usd")
                        .decimalValue())
                .isEqualByComparingTo("1.5");

        // Another merchant, and the same merchant's other mode, keep their own.
        assertThat(read(get(newMerchant(), PATH).expectStatus().isOk())
                        .get("data")
                        .get("deposit_webhook_minimum_usd")
                        .decimalValue())
                .isZero();
        assertThat(read(get(new MerchantIdentity(merchant.merchantId(), Mode.LIVE), PATH)
                                .expectStatus()
                                .isOk())
                        .get("data")
                        .get("deposit_webhook_minimum_usd")
                        .decimalValue())
                .isZero();

        put(merchant, "{\"deposit_webhook_minimum_usd\":0}").expectStatus().isOk();
    }

    @Test
    void refusesWhatIsNotAnAmount() {
        MerchantIdentity merchant = newMerchant();
        for (String body : List.of(
                "{\"deposit_webhook_minimum_usd\":-1}",
                "{\"deposit_webhook_minimum_usd\":\"1.00\"}",
                "{\"deposit_webhook_minimum_usd\":null}",
                "{}",
                "{\"deposit_webhook_minimum_usd\":1,\"extra\":true}",
                "{\"deposit_webhook_minimum_usd\":1e30}",
                "[]",
                "not json")) {
            JsonNode problem = read(put(merchant, body).expectStatus().isBadRequest());
            assertThat(problem.get("status").asInt()).as(body).isEqualTo(400);
        }
        assertThat(read(get(merchant, PATH).expectStatus().isOk())
                        .get("data")
                        .get("updated_at")
                        .isNull())
                .as("nothing stored")
                .isTrue();
    }

    @Test
    void dustIsRecordedWithoutAWebhookAndEnoughOrUnpricedIsAnnounced() {
        MerchantIdentity merchant = newMerchant();
        put(merchant, "{\"deposit_webhook_minimum_usd\":1}").expectStatus().isOk();
        String id = createOk(merchant, "{\"payment_name\":\"Lamp\",\"amount\":10,\"currency\":\"USDC\"}")
                .get("id")
                .asString();

        String dust = newHash();
        confirmOtherToken(id, dust, "0.000001", "0.01");
        String enough = newHash();
        confirmOtherToken(id, enough, "5", "5.00");
        String unpriced = newHash();
        confirmOtherToken(id, unpriced, "0.000001", null);

        List<String> announced = database.sql(
                        "SELECT payload FROM outbox_event WHERE aggregate_id = :id AND event_type = 'wallet.deposit'"
                                + " ORDER BY position")
                .bind("id", id)
                .map(row -> json.readTree(row.get("payload", String.class))
                        .get("data")
                        .get("transaction_hash")
                        .asString())
                .all()
                .collectList()
                .block();
        assertThat(announced)
                .as("the dust sends no webhook; worth the minimum, or of unknown value, does")
                .containsExactly(enough, unpriced);
        JsonNode link = read(get(merchant, "/payment_links/" + id)
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(link.get("transactions").findValuesAsString("tx_hash"))
                .as("every transfer stays recorded on the link")
                .contains(dust, enough, unpriced);
    }

    /** Another token than the link's, reported pending then confirmed (a wallet.deposit once confirmed). */
    private void confirmOtherToken(String linkId, String hash, String amount, String usd) {
        for (String status : List.of("pending", "confirmed")) {
            reportTransaction(
                            linkId,
                            "{\"network\":\"Local dev chain\",\"tx_hash\":\"" + hash + "\"," + transfer(0, TEST_USDT)
                                    + ",\"payer_address\":\"0xpayer\",\"crypto_amount\":" + amount
                                    + (usd == null ? "" : ",\"fiat_amount\":" + usd)
                                    + ",\"status\":\"" + status + "\",\"confirmations\":3}")
                    .expectStatus()
                    .is2xxSuccessful();
        }
    }

    private WebTestClient.ResponseSpec put(MerchantIdentity merchant, String body) {
        return as(merchant, HttpMethod.PUT, PATH)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    private static String newHash() {
        return "0x" + (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
    }
}
