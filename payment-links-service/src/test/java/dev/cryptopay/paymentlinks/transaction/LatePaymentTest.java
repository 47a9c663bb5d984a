package dev.cryptopay.paymentlinks.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Late payments complete nothing by themselves: a confirmed one is a {@code wallet.deposit} with its reason, and only
 * the merchant's resolve counts it as a use (with {@code payment.completed}). Events carry what the link received and
 * the transaction's own amount and confirmations.
 */
class LatePaymentTest extends PaymentLinksTestBase {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Autowired
    DatabaseClient database;

    /** A transaction hash no other test uses ((network, tx_hash, log_index) is unique across the shared database). */
    private static String newHash() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "0x" + HexFormat.of().formatHex(bytes);
    }

    private String newLink(MerchantIdentity merchant, String amount, int maxUses) {
        return createOk(
                        merchant,
                        "{\"payment_name\":\"Ticket\",\"amount\":" + amount + ",\"currency\":\"USDC\",\"max_uses\":"
                                + maxUses + "}")
                .get("id")
                .asString();
    }

    private JsonNode report(String id, String hash, String amount, String status, int confirmations, int expected) {
        return report(id, hash, 0, amount, status, confirmations, expected);
    }

    private JsonNode report(
            String id, String hash, int logIndex, String amount, String status, int confirmations, int expected) {
        return read(reportTransaction(
                                id,
                                "{\"network\":\"Ethereum\",\"tx_hash\":\"" + hash + "\","
                                        + transfer(logIndex, TEST_USDC)
                                        + ",\"payer_address\":\"0xPAYER\","
                                        + "\"crypto_amount\":" + amount + ",\"status\":\"" + status
                                        + "\",\"confirmations\":" + confirmations + "}")
                        .expectStatus()
                        .isEqualTo(expected))
                .get("data");
    }

    private WebTestClient.ResponseSpec resolve(MerchantIdentity merchant, String id, String body, String key) {
        WebTestClient.RequestBodySpec request = as(merchant, HttpMethod.POST, "/payment_links/" + id + "/resolve");
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return request.contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    private JsonNode resolveStatus(MerchantIdentity merchant, String id, String hash, int expected) {
        return read(resolve(merchant, id, "{\"tx_hash\":\"" + hash + "\"}", null)
                .expectStatus()
                .isEqualTo(expected));
    }

    /** The link's outbox events in order, each as its whole payload. */
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

    private JsonNode lastEvent(String linkId) {
        List<JsonNode> all = events(linkId);
        return all.get(all.size() - 1);
    }

    @Test
    void aDustPaymentToAnExpiredLinkIsRecordedLateAndSentOnceAsADepositNeverAsCompleted() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, "100", 1);
        clock.advance(Duration.ofHours(25));
        String hash = newHash();

        JsonNode pending = report(id, hash, "0.01", "pending", 1, 201);
        assertThat(pending.get("transaction").get("late").asBoolean()).isTrue();
        assertThat(eventTypes(id)).as("a late payment seen on chain is no news").containsExactly("payment.created");

        JsonNode confirmed = report(id, hash, "0.01", "confirmed", 12, 200);
        assertThat(confirmed.get("transaction").get("counted_as_use").asBoolean())
                .isFalse();
        assertThat(confirmed.get("payment_link").get("payment_status").asString())
                .isEqualTo("expired");
        assertThat(confirmed.get("payment_link").get("current_uses").asInt()).isZero();
        report(id, hash, "0.01", "confirmed", 12, 200);

        assertThat(eventTypes(id)).containsExactly("payment.created", "wallet.deposit");
        JsonNode deposit = lastEvent(id).get("data");
        assertThat(deposit.get("reason").asString()).isEqualTo("late_payment");
        assertThat(deposit.get("late").asBoolean()).isTrue();
        assertThat(deposit.get("status").asString()).isEqualTo("expired");
        assertThat(deposit.get("transaction_hash").asString()).isEqualTo(hash);
        assertThat(deposit.get("transaction_amount").asString()).isEqualTo("0.01");
        assertThat(deposit.get("amount_received").asString()).isEqualTo("0");
        assertThat(deposit.get("confirmations").asInt()).isEqualTo(12);
        assertThat(deposit.get("amount").asString()).isEqualTo("100");

        // The merchant sees it on the link, marked late.
        JsonNode link = read(get(merchant, "/payment_links/" + id)
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(link.get("payment_status").asString()).isEqualTo("expired");
        assertThat(link.get("current_uses").asInt()).isZero();
        JsonNode transaction = link.get("transactions").get(0);
        assertThat(link.get("transactions").size()).isEqualTo(1);
        assertThat(transaction.get("tx_hash").asString()).isEqualTo(hash);
        assertThat(transaction.get("late").asBoolean()).isTrue();
        assertThat(transaction.get("counted_as_use").asBoolean()).isFalse();
        assertThat(transaction.get("status").asString()).isEqualTo("confirmed");
        assertThat(transaction.get("crypto_amount").decimalValue()).isEqualByComparingTo("0.01");
        assertThat(link.get("summary").get("total_transactions").asInt()).isEqualTo(1);
    }

    @Test
    void aLateFailedPaymentSendsNothing() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, "10", 1);
        delete(merchant, "/payment_links/" + id).expectStatus().isOk();
        String hash = newHash();
        report(id, hash, "10", "pending", 0, 201);
        report(id, hash, "10", "failed", 0, 200);

        assertThat(eventTypes(id)).containsExactly("payment.created");
    }

    @Test
    void aLateFullPaymentResolvedByTheMerchantCompletesTheLinkOnce() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, "10", 1);
        clock.advance(Duration.ofHours(25));
        String hash = newHash();
        report(id, hash, "10.5", "confirmed", 6, 201);
        assertThat(eventTypes(id)).containsExactly("payment.created", "wallet.deposit");

        String body = "{\"tx_hash\":\"" + hash.toUpperCase().replace("0X", "0x") + "\"}";
        JsonNode first = read(resolve(merchant, id, body, null).expectStatus().isOk());
        assertThat(first.get("message").asString()).isEqualTo("Late payment resolved successfully");
        JsonNode link = first.get("data");
        assertThat(link.get("payment_status").asString()).isEqualTo("completed");
        assertThat(link.get("current_uses").asInt()).isEqualTo(1);
        assertThat(link.get("transactions").get(0).get("late").asBoolean()).isTrue();
        assertThat(link.get("transactions").get(0).get("counted_as_use").asBoolean())
                .isTrue();
        assertThat(link.get("summary").get("completed_transactions").asInt()).isEqualTo(1);

        assertThat(eventTypes(id)).containsExactly("payment.created", "wallet.deposit", "payment.completed");
        JsonNode completed = lastEvent(id).get("data");
        assertThat(completed.get("late").asBoolean()).isTrue();
        assertThat(completed.get("status").asString()).isEqualTo("completed");
        assertThat(completed.get("transaction_hash").asString()).isEqualTo(hash);
        assertThat(completed.get("transaction_amount").asString()).isEqualTo("10.5");
        assertThat(completed.get("amount_received").asString()).isEqualTo("10.5");
        assertThat(completed.get("confirmations").asInt()).isEqualTo(6);
        assertThat(completed.has("reason"))
                .as("reason is wallet.deposit's alone")
                .isFalse();

        // Again: the same answer, no second use, no second event.
        JsonNode second = read(resolve(merchant, id, body, null).expectStatus().isOk());
        assertThat(second).isEqualTo(first);
        assertThat(eventTypes(id)).containsExactly("payment.created", "wallet.deposit", "payment.completed");
        // A repeated report of the resolved transaction changes nothing either.
        report(id, hash, "10.5", "confirmed", 6, 200);
        assertThat(eventTypes(id)).hasSize(3);
    }

    @Test
    void resolveOfAMultiUseLinkKeepsItsStatusUntilTheUsesAreReached() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, "10", 2);
        delete(merchant, "/payment_links/" + id).expectStatus().isOk();
        String hash = newHash();
        report(id, hash, "10", "confirmed", 3, 201);

        JsonNode link = resolveStatus(merchant, id, hash, 200).get("data");
        assertThat(link.get("payment_status").asString()).isEqualTo("cancelled");
        assertThat(link.get("current_uses").asInt()).isEqualTo(1);
    }

    @Test
    void resolveTakesAnIdempotencyKeyForOneRequest() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, "10", 1);
        clock.advance(Duration.ofHours(25));
        String hash = newHash();
        report(id, hash, "10", "confirmed", 3, 201);
        String body = "{\"tx_hash\":\"" + hash + "\"}";

        byte[] first = resolve(merchant, id, body, "resolve-1")
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
        byte[] again = resolve(merchant, id, body, "resolve-1")
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
        assertThat(again).isEqualTo(first);

        String other = newLink(merchant, "10", 1);
        JsonNode reused =
                read(resolve(merchant, other, body, "resolve-1").expectStatus().isEqualTo(409));
        assertThat(reused.get("code").asString()).isEqualTo("idempotency_key_reused");
        assertThat(eventTypes(id)).containsExactly("payment.created", "wallet.deposit", "payment.completed");
    }

    @Test
    void resolveRefusesWhatItCannotAccept() {
        MerchantIdentity merchant = newMerchant();
        String inTime = newLink(merchant, "10", 1);
        String paid = newHash();
        report(inTime, paid, "10", "confirmed", 3, 201);
        assertThat(resolveStatus(merchant, inTime, paid, 409).get("code").asString())
                .isEqualTo("not_late");

        String expired = newLink(merchant, "10", 1);
        clock.advance(Duration.ofHours(25));
        String pending = newHash();
        report(expired, pending, "10", "pending", 1, 201);
        JsonNode notConfirmed = resolveStatus(merchant, expired, pending, 409);
        assertThat(notConfirmed.get("code").asString()).isEqualTo("not_confirmed");
        assertThat(notConfirmed.get("message").asString())
                .isEqualTo("Only a confirmed transaction can be resolved; this one is pending");

        String small = newHash();
        report(expired, small, "9.99", "confirmed", 3, 201);
        JsonNode insufficient = resolveStatus(merchant, expired, small, 409);
        assertThat(insufficient.get("code").asString()).isEqualTo("insufficient_amount");
        assertThat(insufficient.get("message").asString())
                .isEqualTo("The transaction's amount (9.99) does not cover the link amount (10)");

        // Another merchant's link, the same merchant's other mode, a transaction of another link: 404.
        String full = newHash();
        report(expired, full, "10", "confirmed", 3, 201);
        resolveStatus(newMerchant(), expired, full, 404);
        resolveStatus(new MerchantIdentity(merchant.merchantId(), Mode.LIVE), expired, full, 404);
        assertThat(resolveStatus(merchant, inTime, full, 404).get("message").asString())
                .isEqualTo("Transaction not found for this link");

        // Malformed requests: 400 naming tx_hash.
        for (String body : new String[] {"{}", "{\"tx_hash\":\"0x12\"}", "{\"tx_hash\":12}", "{\"tx_hash\":null}"}) {
            JsonNode error =
                    read(resolve(merchant, expired, body, null).expectStatus().isBadRequest());
            assertThat(error.get("errors"))
                    .as(body)
                    .extracting(e -> e.get("field").asString())
                    .containsExactly("tx_hash");
        }
        resolve(merchant, expired, "{\"tx_hash\":\"" + full + "\",\"extra\":1}", null)
                .expectStatus()
                .isBadRequest();
        resolve(merchant, "not-a-uuid", "{\"tx_hash\":\"" + full + "\"}", null)
                .expectStatus()
                .isBadRequest();

        assertThat(eventTypes(expired)).containsExactly("payment.created", "wallet.deposit", "wallet.deposit");
        assertThat(read(get(merchant, "/payment_links/" + expired)
                                .expectStatus()
                                .isOk())
                        .get("data")
                        .get("current_uses")
                        .asInt())
                .isZero();
    }

    @Test
    void resolveNeedsTheLogIndexWhenTheTransactionHoldsSeveralTransfersToTheLink() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, "10", 1);
        clock.advance(Duration.ofHours(25));
        String hash = newHash();
        report(id, hash, 4, "10", "confirmed", 3, 201);
        report(id, hash, 5, "12", "confirmed", 3, 201);
        assertThat(eventTypes(id)).containsExactly("payment.created", "wallet.deposit", "wallet.deposit");
        assertThat(events(id).get(2).get("data").get("log_index").asInt()).isEqualTo(5);

        JsonNode ambiguous = resolveStatus(merchant, id, hash, 409);
        assertThat(ambiguous.get("code").asString()).isEqualTo("log_index_required");
        assertThat(ambiguous.get("message").asString())
                .isEqualTo("This transaction holds 2 transfers to this link (log_index 4, 5); say which one with "
                        + "log_index");
        assertThat(read(resolve(merchant, id, "{\"tx_hash\":\"" + hash + "\",\"log_index\":6}", null)
                                .expectStatus()
                                .isNotFound())
                        .get("message")
                        .asString())
                .isEqualTo("Transaction not found for this link");
        for (String bad : new String[] {"-3", "1.5", "\"5\""}) {
            JsonNode error =
                    read(resolve(merchant, id, "{\"tx_hash\":\"" + hash + "\",\"log_index\":" + bad + "}", null)
                            .expectStatus()
                            .isBadRequest());
            assertThat(error.get("errors"))
                    .as(bad)
                    .extracting(e -> e.get("field").asString())
                    .containsExactly("log_index");
        }

        String body = "{\"tx_hash\":\"" + hash + "\",\"log_index\":5}";
        JsonNode first =
                read(resolve(merchant, id, body, "resolve-5").expectStatus().isOk());
        JsonNode link = first.get("data");
        assertThat(link.get("payment_status").asString()).isEqualTo("completed");
        assertThat(link.get("current_uses").asInt()).isEqualTo(1);
        assertThat(link.get("transactions"))
                .filteredOn(t -> t.get("counted_as_use").asBoolean())
                .extracting(t -> t.get("log_index").asInt())
                .containsExactly(5);
        JsonNode completed = lastEvent(id).get("data");
        assertThat(completed.get("log_index").asInt()).isEqualTo(5);
        assertThat(completed.get("transaction_amount").asString()).isEqualTo("12");
        assertThat(completed.get("late").asBoolean()).isTrue();

        // Idempotent: the same key answers the same bytes; without a key, the same link and no second use.
        assertThat(read(resolve(merchant, id, body, "resolve-5").expectStatus().isOk()))
                .isEqualTo(first);
        assertThat(resolveStatus(merchant, id, hash, 409).get("code").asString())
                .as("still two transfers of the hash")
                .isEqualTo("log_index_required");
        read(resolve(merchant, id, body, null).expectStatus().isOk());
        assertThat(eventTypes(id))
                .containsExactly("payment.created", "wallet.deposit", "wallet.deposit", "payment.completed");
    }

    @Test
    void aPaymentBeyondTheUsesIsADepositBeyondMaxUses() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, "10", 1);
        report(id, newHash(), "10", "confirmed", 3, 201);
        String extra = newHash();

        JsonNode recorded = report(id, extra, "10", "confirmed", 3, 201);
        assertThat(recorded.get("transaction").get("late").asBoolean()).isTrue();
        assertThat(recorded.get("payment_link").get("current_uses").asInt()).isEqualTo(1);

        assertThat(eventTypes(id)).containsExactly("payment.created", "payment.completed", "wallet.deposit");
        JsonNode deposit = lastEvent(id).get("data");
        assertThat(deposit.get("reason").asString()).isEqualTo("beyond_max_uses");
        assertThat(deposit.get("status").asString()).isEqualTo("completed");
        assertThat(deposit.get("amount_received").asString()).isEqualTo("10");
        assertThat(deposit.get("transaction_amount").asString()).isEqualTo("10");

        // The merchant may honour it: a second use of a one-use link.
        JsonNode link = resolveStatus(merchant, id, extra, 200).get("data");
        assertThat(link.get("current_uses").asInt()).isEqualTo(2);
        assertThat(link.get("payment_status").asString()).isEqualTo("completed");
        assertThat(lastEvent(id).get("data").get("amount_received").asString()).isEqualTo("20");
    }

    @Test
    void aPaymentSeenInTimeThatConfirmsAfterTheLastUseWasTakenIsADeposit() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, "10", 1);
        String slow = newHash();
        report(id, slow, "10", "pending", 1, 201);
        report(id, newHash(), "10", "confirmed", 3, 201);

        JsonNode confirmed = report(id, slow, "10", "confirmed", 3, 200);
        assertThat(confirmed.get("transaction").get("late").asBoolean()).isTrue();
        assertThat(confirmed.get("payment_link").get("current_uses").asInt()).isEqualTo(1);

        assertThat(eventTypes(id))
                .containsExactly("payment.created", "payment.pending", "payment.completed", "wallet.deposit");
        assertThat(lastEvent(id).get("data").get("reason").asString()).isEqualTo("beyond_max_uses");
    }

    @Test
    void paymentEventsCarryTheAmountsAndConfirmations() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, "10", 2);
        String partial = newHash();
        report(id, partial, "4", "confirmed", 5, 201);
        String topUp = newHash();
        report(id, topUp, "6", "pending", 2, 201);
        report(id, topUp, "6", "confirmed", 7, 200);

        List<JsonNode> events = events(id);
        assertThat(eventTypes(id)).containsExactly("payment.created", "payment.pending", "payment.completed");
        JsonNode created = events.get(0).get("data");
        assertThat(created.get("amount_received").asString()).isEqualTo("0");
        assertThat(created.get("transaction_amount").isNull()).isTrue();
        assertThat(created.get("confirmations").isNull()).isTrue();
        assertThat(created.get("late").asBoolean()).isFalse();
        JsonNode pending = events.get(1).get("data");
        assertThat(pending.get("amount_received").asString())
                .as("the partial payment")
                .isEqualTo("4");
        assertThat(pending.get("transaction_amount").asString()).isEqualTo("6");
        assertThat(pending.get("confirmations").asInt()).isEqualTo(2);
        JsonNode completed = events.get(2).get("data");
        assertThat(completed.get("amount_received").asString()).isEqualTo("10");
        assertThat(completed.get("transaction_amount").asString()).isEqualTo("6");
        assertThat(completed.get("confirmations").asInt()).isEqualTo(7);
        assertThat(completed.has("reason")).isFalse();
    }
}
