package dev.cryptopay.paymentlinks.paymentlink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import dev.cryptopay.paymentlinks.expiry.ExpirySweeper;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

class PaymentLinkLifecycleTest extends PaymentLinksTestBase {

    /** Where refunds go: a customer's address in EIP-55 form. */
    private static final String CUSTOMER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    @Autowired
    ExpirySweeper sweeper;

    @Autowired
    DatabaseClient database;

    private String newLink(MerchantIdentity merchant, int maxUses) {
        return createOk(
                        merchant,
                        "{\"payment_name\":\"Ticket\",\"amount\":10,\"currency\":\"USDC\",\"max_uses\":" + maxUses
                                + "}")
                .get("id")
                .asString();
    }

    private JsonNode report(String id, String hash, String amount, String status, int expectedStatus) {
        return read(reportTransaction(
                        id,
                        "{\"network\":\"Ethereum\",\"tx_hash\":\"" + hash + "\"," + transfer(0, TEST_USDC) + ","
                                + "\"payer_address\":\"0xPAYER\",\"crypto_amount\":" + amount + ",\"status\":\""
                                + status
                                + "\",\"confirmations\":3}")
                .expectStatus()
                .isEqualTo(expectedStatus));
    }

    private JsonNode link(MerchantIdentity merchant, String id) {
        return read(get(merchant, "/payment_links/" + id).expectStatus().isOk()).get("data");
    }

    /** The {@code late} flag of the link's payment and deposit events, in order. */
    private List<Boolean> lateFlags(String linkId) {
        return database.sql("SELECT payload FROM outbox_event WHERE aggregate_id = :id "
                        + "AND (event_type LIKE 'payment.%' OR event_type = 'wallet.deposit') ORDER BY position")
                .bind("id", linkId)
                .map(row -> json.readTree(row.get("payload", String.class))
                        .get("data")
                        .get("late")
                        .asBoolean())
                .all()
                .collectList()
                .block();
    }

    private List<String> eventTypes(String linkId) {
        return database.sql("SELECT event_type FROM outbox_event WHERE aggregate_id = :id ORDER BY position")
                .bind("id", linkId)
                .map(row -> row.get("event_type", String.class))
                .all()
                .collectList()
                .block();
    }

    @Test
    void pendingThenConfirmedTransactionCompletesAOneUseLink() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, 1);

        JsonNode pending = report(id, "0x01", "10", "pending", 201);
        assertThat(pending.get("data").get("payment_link").get("payment_status").asString())
                .isEqualTo("processing");
        assertThat(link(merchant, id).get("payment_status").asString()).isEqualTo("processing");

        JsonNode confirmed = report(id, "0x01", "10", "confirmed", 200);
        assertThat(confirmed
                        .get("data")
                        .get("transaction")
                        .get("counted_as_use")
                        .asBoolean())
                .isTrue();
        JsonNode completed = link(merchant, id);
        assertThat(completed.get("payment_status").asString()).isEqualTo("completed");
        assertThat(completed.get("current_uses").asInt()).isEqualTo(1);
        assertThat(eventTypes(id)).containsExactly("payment.created", "payment.pending", "payment.completed");
    }

    @Test
    void multiUseLinkReturnsToPendingUntilEveryUseIsTaken() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, 2);

        report(id, "0x11", "10", "confirmed", 201);
        JsonNode afterFirst = link(merchant, id);
        assertThat(afterFirst.get("payment_status").asString()).isEqualTo("pending");
        assertThat(afterFirst.get("current_uses").asInt()).isEqualTo(1);

        report(id, "0x12", "12", "confirmed", 201);
        JsonNode afterSecond = link(merchant, id);
        assertThat(afterSecond.get("payment_status").asString()).isEqualTo("completed");
        assertThat(afterSecond.get("current_uses").asInt()).isEqualTo(2);

        // A third payment is recorded, never lost, but moves nothing: it is late.
        JsonNode extra = report(id, "0x13", "10", "pending", 201).get("data");
        assertThat(extra.get("transaction").get("late").asBoolean()).isTrue();
        assertThat(extra.get("payment_link").get("payment_status").asString()).isEqualTo("completed");
        assertThat(extra.get("payment_link").get("current_uses").asInt()).isEqualTo(2);
    }

    @Test
    void failedTransactionSendsTheLinkBackToPending() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, 1);
        report(id, "0x21", "10", "pending", 201);

        report(id, "0x21", "10", "failed", 200);

        assertThat(link(merchant, id).get("payment_status").asString()).isEqualTo("pending");
        assertThat(eventTypes(id)).containsExactly("payment.created", "payment.pending", "payment.failed");
    }

    @Test
    void repeatedAndStaleReportsChangeNothingAndAFailureAfterConfirmationIsRefused() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, 3);
        report(id, "0x31", "10", "confirmed", 201);

        JsonNode again = report(id, "0x31", "10", "confirmed", 200);
        assertThat(again.get("data").get("payment_link").get("current_uses").asInt())
                .isEqualTo(1);
        // A pending report older than the confirmation (a second watcher instance's, say) is no news: 200.
        JsonNode stale = report(id, "0x31", "10", "pending", 200).get("data");
        assertThat(stale.get("transaction").get("status").asString()).isEqualTo("confirmed");
        assertThat(stale.get("payment_link").get("current_uses").asInt()).isEqualTo(1);
        // Confirmed, then taken away by a reorganisation deeper than the confirmations: an operator must look.
        JsonNode regress = report(id, "0x31", "10", "failed", 409);
        assertThat(regress.get("code").asString()).isEqualTo("illegal_transition");
        assertThat(regress.get("message").asString())
                .isEqualTo("Transaction is already confirmed and cannot become failed");
        assertThat(eventTypes(id)).containsExactly("payment.created", "payment.completed");

        String other = newLink(merchant, 1);
        JsonNode elsewhere = report(other, "0x31", "10", "confirmed", 409);
        assertThat(elsewhere.get("code").asString()).isEqualTo("transaction_conflict");
    }

    @Test
    void paymentsToCancelledAndExpiredLinksAreRecordedAsLateAndMoveNothing() {
        MerchantIdentity merchant = merchantWithKey();
        String cancelled = newLink(merchant, 1);
        delete(merchant, "/payment_links/" + cancelled).expectStatus().isOk();
        JsonNode toCancelled = report(cancelled, "0x41", "10", "pending", 201).get("data");
        assertThat(toCancelled.get("transaction").get("late").asBoolean()).isTrue();
        assertThat(toCancelled.get("payment_link").get("payment_status").asString())
                .isEqualTo("cancelled");

        String expiring = newLink(merchant, 1);
        clock.advance(Duration.ofHours(24));
        report(expiring, "0x42", "10", "pending", 201);
        JsonNode confirmed = report(expiring, "0x42", "10", "confirmed", 200).get("data");
        assertThat(confirmed.get("transaction").get("late").asBoolean()).isTrue();
        assertThat(confirmed.get("transaction").get("status").asString()).isEqualTo("confirmed");
        assertThat(confirmed.get("payment_link").get("payment_status").asString())
                .isEqualTo("expired");
        assertThat(confirmed.get("payment_link").get("current_uses").asInt()).isZero();
        // The merchant hears of it once it is confirmed: a deposit, marked late, never a completed payment.
        assertThat(eventTypes(expiring)).containsExactly("payment.created", "wallet.deposit");
        assertThat(lateFlags(expiring)).containsExactly(false, true);
        assertThat(eventTypes(cancelled)).containsExactly("payment.created");
        JsonNode summary = link(merchant, expiring).get("summary");
        assertThat(summary.get("total_transactions").asInt()).isEqualTo(1);
        assertThat(summary.get("completed_transactions").asInt()).isEqualTo(1);
        // Refunding it is not one of the late payment's own steps: that event is not marked late.
        String deposit = link(merchant, expiring).get("deposit_address").asString();
        refund(merchant, expiring, "{\"address\":\"" + CUSTOMER + "\"}")
                .expectStatus()
                .isCreated();
        reportOutgoing(expiring, outgoing("0x43", deposit, CUSTOMER, "10", "confirmed"))
                .expectStatus()
                .isCreated();
        assertThat(eventTypes(expiring))
                .containsExactly(
                        "payment.created",
                        "wallet.deposit",
                        "transfer.initiated",
                        "transfer.completed",
                        "payment.refunded");
        assertThat(lateFlags(expiring)).containsExactly(false, true, false);
    }

    @Test
    void aTransactionInFlightAtExpiryMayStillConfirm() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, 1);
        report(id, "0x51", "10", "pending", 201);
        clock.advance(Duration.ofHours(30));

        assertThat(sweeper.sweep().block()).isZero();
        report(id, "0x51", "10", "confirmed", 200);
        assertThat(link(merchant, id).get("payment_status").asString()).isEqualTo("completed");
    }

    @Test
    void aCompletedRefundOfAConfirmedTransactionEmitsRefunded() {
        MerchantIdentity merchant = merchantWithKey();
        String id = newLink(merchant, 1);
        report(id, "0x61", "10", "pending", 201);
        String transaction =
                link(merchant, id).get("transactions").get(0).get("id").asString();
        String ofTransaction = "{\"transaction_id\":\"" + transaction + "\",\"address\":\"" + CUSTOMER + "\"}";

        assertThat(read(refund(merchant, id, ofTransaction).expectStatus().isEqualTo(409))
                        .get("code")
                        .asString())
                .isEqualTo("not_confirmed");
        report(id, "0x61", "10", "confirmed", 200);
        refund(merchant, id, ofTransaction).expectStatus().isCreated();
        reportOutgoing(
                        id,
                        outgoing(
                                "0x62",
                                link(merchant, id).get("deposit_address").asString(),
                                CUSTOMER,
                                "10",
                                "confirmed"))
                .expectStatus()
                .isCreated();
        assertThat(read(refund(merchant, id, ofTransaction).expectStatus().isEqualTo(409))
                        .get("code")
                        .asString())
                .isEqualTo("nothing_to_refund");
        refund(merchant, id, "{\"transaction_id\":\"" + UUID.randomUUID() + "\"}")
                .expectStatus()
                .isNotFound();

        JsonNode after = link(merchant, id);
        assertThat(after.get("payment_status").asString()).isEqualTo("completed");
        assertThat(after.get("transactions").get(0).get("status").asString()).isEqualTo("refunded");
        assertThat(after.get("summary").get("total_amount_received_crypto").decimalValue())
                .isZero();
        assertThat(eventTypes(id))
                .containsExactly(
                        "payment.created",
                        "payment.pending",
                        "payment.completed",
                        "transfer.initiated",
                        "transfer.completed",
                        "payment.refunded");
    }

    @Test
    void sweeperExpiresUnpaidLinksOnceWithAFailedEvent() {
        MerchantIdentity merchant = newMerchant();
        String id = newLink(merchant, 1);
        String fresh = createOk(
                        merchant,
                        "{\"payment_name\":\"Later\",\"amount\":1,\"currency\":\"USDC\"," + "\"expires_at\":\""
                                + clock.instant().plus(Duration.ofDays(3)) + "\"}")
                .get("id")
                .asString();
        clock.advance(Duration.ofHours(24).plusSeconds(1));

        assertThat(sweeper.sweep().block()).isGreaterThanOrEqualTo(1);
        assertThat(sweeper.sweep().block()).isZero();

        assertThat(link(merchant, id).get("payment_status").asString()).isEqualTo("expired");
        assertThat(link(merchant, fresh).get("payment_status").asString()).isEqualTo("pending");
        assertThat(eventTypes(id)).containsExactly("payment.created", "payment.failed");
        String stored = database.sql("SELECT payment_status FROM payment_link WHERE id = :id")
                .bind("id", UUID.fromString(id))
                .map(row -> row.get(0, String.class))
                .one()
                .block();
        assertThat(stored).isEqualTo("expired");
    }

    @Test
    void concurrentSweepsExpireEachLinkExactlyOnce() {
        MerchantIdentity merchant = newMerchant();
        List<String> ids = Flux.range(0, 150)
                .concatMap(i -> Mono.fromSupplier(() -> newLink(merchant, 1)))
                .collectList()
                .block();
        clock.advance(Duration.ofDays(2));

        Integer expired = Flux.merge(sweeper.sweep(), sweeper.sweep(), sweeper.sweep())
                .reduce(0, Integer::sum)
                .block();

        assertThat(expired).isGreaterThanOrEqualTo(150);
        Long failedEvents = database.sql("SELECT count(*) FROM outbox_event WHERE event_type = 'payment.failed' "
                        + "AND record_key = :merchant")
                .bind("merchant", merchant.merchantId().toString())
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
        assertThat(failedEvents).isEqualTo(ids.size());
    }

    @Test
    void refusesAMalformedTransactionReport() {
        String id = newLink(newMerchant(), 1);
        JsonNode error = read(reportTransaction(
                        id,
                        "{\"network\":\"Ethereum\",\"tx_hash\":\"0x\","
                                + "\"payer_address\":\"0xP\",\"crypto_amount\":-1,\"status\":\"done\"}")
                .expectStatus()
                .isBadRequest());
        assertThat(error.get("errors"))
                .extracting(e -> e.get("field").asString())
                .containsExactly("log_index", "crypto_amount", "status");
        reportTransaction(
                        UUID.randomUUID().toString(),
                        "{\"network\":\"Ethereum\",\"tx_hash\":\"0x1\"," + transfer(0, TEST_USDC) + ","
                                + "\"payer_address\":\"0xP\",\"crypto_amount\":1,\"status\":\"pending\"}")
                .expectStatus()
                .isNotFound();
    }
}
