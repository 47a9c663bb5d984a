package dev.cryptopay.paymentlinks.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.JsonNode;

/**
 * A transfer, not a transaction, is what a link is paid by: (network, tx_hash, log_index) names one, so a multisend
 * pays several links and two transfers of one transaction may pay one link, each recorded once. Ordinary sequences of
 * reports are never refused. (Wrong-token deposits: {@link UnexpectedAssetTest}.)
 */
class TransfersTest extends PaymentLinksTestBase {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Autowired
    DatabaseClient database;

    static String newHash() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "0x" + HexFormat.of().formatHex(bytes);
    }

    private String newLink(MerchantIdentity merchant, String amount) {
        return createOk(merchant, "{\"payment_name\":\"Seat\",\"amount\":" + amount + ",\"currency\":\"USDC\"}")
                .get("id")
                .asString();
    }

    /** A USDC transfer's report, as a chain watcher sends it; answers the response's data (or error) object. */
    private JsonNode report(String id, String hash, int logIndex, String amount, String status, int expected) {
        JsonNode body = read(reportTransaction(
                        id,
                        "{\"network\":\"Local dev chain\",\"tx_hash\":\"" + hash + "\"," + transfer(logIndex, TEST_USDC)
                                + ",\"payer_address\":\"0xpayer\",\"crypto_amount\":" + amount + ",\"status\":\""
                                + status + "\",\"confirmations\":" + (status.equals("pending") ? 1 : 3)
                                + ",\"required_confirmations\":3}")
                .expectStatus()
                .isEqualTo(expected));
        return body.has("data") ? body.get("data") : body;
    }

    private List<JsonNode> events(String linkId) {
        return database.sql("SELECT payload FROM outbox_event WHERE aggregate_id = :id ORDER BY position")
                .bind("id", linkId)
                .map(row -> json.readTree(row.get("payload", String.class)))
                .all()
                .collectList()
                .block();
    }

    private List<String> eventTypes(String linkId) {
        return events(linkId).stream()
                .map(event -> event.get("type").asString())
                .toList();
    }

    private JsonNode link(MerchantIdentity merchant, String id) {
        return read(get(merchant, "/payment_links/" + id).expectStatus().isOk()).get("data");
    }

    private long recorded(String hash) {
        return database.sql("SELECT count(*) FROM link_transaction WHERE tx_hash = :hash")
                .bind("hash", hash)
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
    }

    @Test
    void aMultisendPaysEveryLinkItTransfersToEachTransferOnce() {
        MerchantIdentity merchant = newMerchant();
        String x = newLink(merchant, "10");
        String y = newLink(merchant, "10");
        String z = newLink(merchant, "10");
        String hash = newHash();

        // Seen: every transfer of the transaction, in log order.
        report(x, hash, 0, "10", "pending", 201);
        report(y, hash, 1, "10", "pending", 201);
        report(z, hash, 2, "5", "pending", 201);
        report(z, hash, 3, "5", "pending", 201);
        // Confirmed: X and Y in full; Z's first half is a partial payment, its second half covers it.
        assertThat(report(x, hash, 0, "10", "confirmed", 200)
                        .get("payment_link")
                        .get("payment_status")
                        .asString())
                .isEqualTo("completed");
        report(y, hash, 1, "10", "confirmed", 200);
        JsonNode half = report(z, hash, 2, "5", "confirmed", 200);
        assertThat(half.get("transaction").get("counted_as_use").asBoolean()).isFalse();
        assertThat(half.get("payment_link").get("payment_status").asString())
                .as("the other half is still in flight")
                .isEqualTo("processing");
        JsonNode covered = report(z, hash, 3, "5", "confirmed", 200);
        assertThat(covered.get("transaction").get("log_index").asInt()).isEqualTo(3);
        assertThat(covered.get("transaction").get("counted_as_use").asBoolean()).isTrue();

        for (String id : List.of(x, y, z)) {
            JsonNode link = link(merchant, id);
            assertThat(link.get("payment_status").asString()).as(id).isEqualTo("completed");
            assertThat(link.get("current_uses").asInt()).isEqualTo(1);
            assertThat(link.get("summary").get("total_amount_received_crypto").decimalValue())
                    .isEqualByComparingTo("10");
        }
        assertThat(recorded(hash)).as("each transfer recorded once").isEqualTo(4);
        JsonNode zTransactions = link(merchant, z).get("transactions");
        assertThat(zTransactions).extracting(t -> t.get("log_index").asInt()).containsExactlyInAnyOrder(2, 3);
        assertThat(zTransactions).allSatisfy(t -> {
            assertThat(t.get("tx_hash").asString()).isEqualTo(hash);
            assertThat(t.get("asset").asString()).isEqualTo("USDC");
            assertThat(t.get("token_contract").asString()).isEqualTo(TEST_USDC);
            assertThat(t.get("unexpected_asset").asBoolean()).isFalse();
            assertThat(t.get("counted_as_use").asBoolean()).isTrue();
        });

        assertThat(eventTypes(x)).containsExactly("payment.created", "payment.pending", "payment.completed");
        assertThat(eventTypes(z))
                .containsExactly("payment.created", "payment.pending", "payment.pending", "payment.completed");
        List<JsonNode> zEvents = events(z);
        assertThat(zEvents.get(1).get("data").get("log_index").asInt()).isEqualTo(2);
        assertThat(zEvents.get(2).get("data").get("log_index").asInt()).isEqualTo(3);
        JsonNode completed = zEvents.get(3).get("data");
        assertThat(completed.get("transaction_hash").asString()).isEqualTo(hash);
        assertThat(completed.get("log_index").asInt()).isEqualTo(3);
        assertThat(completed.get("transaction_token_contract").asString()).isEqualTo(TEST_USDC);
        assertThat(completed.get("transaction_asset").asString()).isEqualTo("USDC");
        assertThat(completed.get("transaction_amount").asString()).isEqualTo("5");
        assertThat(completed.get("amount_received").asString()).isEqualTo("10");
        assertThat(completed.get("confirmations").asInt()).isEqualTo(3);
        assertThat(completed.get("late").asBoolean()).isFalse();

        // Every report again, as a watcher after a restart sends them: 200, nothing new.
        report(x, hash, 0, "10", "confirmed", 200);
        report(y, hash, 1, "10", "confirmed", 200);
        report(z, hash, 2, "5", "confirmed", 200);
        report(z, hash, 3, "5", "confirmed", 200);
        report(z, hash, 3, "5", "pending", 200);
        assertThat(recorded(hash)).isEqualTo(4);
        assertThat(eventTypes(x)).hasSize(3);
        assertThat(eventTypes(y)).hasSize(3);
        assertThat(eventTypes(z)).hasSize(4);
    }

    @Test
    void aTransferRecordedForOneLinkIsAConflictForAnother() {
        MerchantIdentity merchant = newMerchant();
        String paid = newLink(merchant, "10");
        String other = newLink(merchant, "10");
        String hash = newHash();
        report(paid, hash, 4, "10", "confirmed", 201);

        JsonNode conflict = report(other, hash, 4, "10", "confirmed", 409);
        assertThat(conflict.get("code").asString()).isEqualTo("transaction_conflict");
        assertThat(eventTypes(other)).containsExactly("payment.created");
        // Another transfer of the same transaction is the other link's own.
        report(other, hash, 5, "10", "confirmed", 201);
        assertThat(link(merchant, other).get("payment_status").asString()).isEqualTo("completed");
    }

    @Test
    void noOrdinarySequenceOfReportsIsRefused() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, "10");
        String hash = newHash();

        // Seen, taken away by a reorganisation (failed, twice), then in a block again and confirmed.
        report(id, hash, 0, "10", "pending", 201);
        report(id, hash, 0, "10", "failed", 200);
        report(id, hash, 0, "10", "failed", 200);
        assertThat(link(merchant, id).get("payment_status").asString()).isEqualTo("pending");
        JsonNode again = report(id, hash, 0, "10", "pending", 200);
        assertThat(again.get("transaction").get("status").asString()).isEqualTo("pending");
        assertThat(again.get("payment_link").get("payment_status").asString()).isEqualTo("processing");
        report(id, hash, 0, "10", "confirmed", 200);
        report(id, hash, 0, "10", "confirmed", 200);
        report(id, hash, 0, "10", "pending", 200);
        assertThat(link(merchant, id).get("payment_status").asString()).isEqualTo("completed");
        assertThat(eventTypes(id))
                .containsExactly(
                        "payment.created", "payment.pending", "payment.failed", "payment.pending", "payment.completed");

        // Reports after the link was completed, cancelled or expired are recorded (late), never refused.
        String extra = newHash();
        report(id, extra, 0, "10", "pending", 201);
        report(id, extra, 0, "10", "confirmed", 200);
        report(id, extra, 0, "10", "confirmed", 200);
        String cancelled = newLink(merchant, "10");
        delete(merchant, "/payment_links/" + cancelled).expectStatus().isOk();
        String toCancelled = newHash();
        report(cancelled, toCancelled, 0, "10", "pending", 201);
        report(cancelled, toCancelled, 0, "10", "failed", 200);
        report(cancelled, toCancelled, 0, "10", "failed", 200);
        assertThat(eventTypes(id)).last().isEqualTo("wallet.deposit");
        assertThat(eventTypes(cancelled)).containsExactly("payment.created");
    }

    @Test
    void aReportNamesItsTransferExactly() {
        String id = newLink(newMerchant(), "10");
        String start = "{\"network\":\"Local dev chain\",\"tx_hash\":\"" + newHash() + "\",";
        String end = ",\"payer_address\":\"0xpayer\",\"crypto_amount\":10,\"status\":\"pending\"}";
        record Case(String members, String field) {}
        for (Case bad : List.of(
                new Case("\"token_contract\":\"" + TEST_USDC + "\"", "log_index"),
                new Case("\"log_index\":-2,\"token_contract\":\"" + TEST_USDC + "\"", "log_index"),
                new Case("\"log_index\":1.5,\"token_contract\":\"" + TEST_USDC + "\"", "log_index"),
                new Case("\"log_index\":\"1\",\"token_contract\":\"" + TEST_USDC + "\"", "log_index"),
                new Case("\"log_index\":-1,\"token_contract\":\"" + TEST_USDC + "\"", "log_index"),
                new Case("\"log_index\":0,\"token_contract\":null", "log_index"),
                new Case("\"log_index\":0", "log_index"),
                new Case("\"log_index\":0,\"token_contract\":\"0x12\"", "token_contract"),
                new Case("\"log_index\":0,\"token_contract\":\"" + TEST_USDC + "00\"", "token_contract"),
                new Case("\"log_index\":0,\"token_contract\":12", "token_contract"))) {
            JsonNode error = read(reportTransaction(id, start + bad.members() + end)
                    .expectStatus()
                    .isBadRequest());
            assertThat(error.get("errors"))
                    .as(bad.members())
                    .extracting(e -> e.get("field").asString())
                    .containsExactly(bad.field());
        }
        // The token may be written in any case; it is kept in lower case.
        JsonNode recorded = read(reportTransaction(
                                id,
                                start + "\"log_index\":7,\"token_contract\":\""
                                        + TEST_USDC.toUpperCase().replace("0X", "0x") + "\"" + end)
                        .expectStatus()
                        .isCreated())
                .get("data")
                .get("transaction");
        assertThat(recorded.get("token_contract").asString()).isEqualTo(TEST_USDC);
        assertThat(recorded.get("unexpected_asset").asBoolean()).isFalse();
        assertThat(eventTypes(id)).containsExactly("payment.created", "payment.pending");
    }

    @Test
    void aTransferRecordedBeforeLogIndexesWereKeptIsAdoptedByItsNextReport() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, "10");
        String hash = newHash();
        report(id, hash, 0, "10", "pending", 201);
        // What V6 makes of a token transfer recorded before it: log index -2.
        database.sql("UPDATE link_transaction SET log_index = -2 WHERE tx_hash = :hash")
                .bind("hash", hash)
                .then()
                .block();

        // A transfer of the same transaction with another token amount is another transfer.
        report(id, hash, 9, "1", "pending", 201);
        JsonNode confirmed = report(id, hash, 6, "10", "confirmed", 200);
        assertThat(confirmed.get("transaction").get("log_index").asInt()).isEqualTo(6);
        assertThat(confirmed.get("transaction").get("counted_as_use").asBoolean())
                .isTrue();
        assertThat(recorded(hash)).isEqualTo(2);
        assertThat(database.sql("SELECT log_index FROM link_transaction WHERE tx_hash = :hash ORDER BY log_index")
                        .bind("hash", hash)
                        .map(row -> row.get(0, Integer.class))
                        .all()
                        .collectList()
                        .block())
                .containsExactly(6, 9);
        assertThat(eventTypes(id))
                .containsExactly("payment.created", "payment.pending", "payment.pending", "payment.completed");
    }

    @Test
    void anUnknownLinkIsNotFound() {
        JsonNode missing = report(UUID.randomUUID().toString(), newHash(), 0, "10", "pending", 404);
        assertThat(missing.get("message").asString()).isEqualTo("Payment link not found");
    }
}
