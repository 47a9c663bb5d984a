package dev.cryptopay.paymentlinks.expiry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.PaymentLinksTestBase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.JsonNode;

/**
 * An initiated refund nothing paid before its {@code expires_at} is failed as abandoned by the expiry sweeper's pass,
 * with {@code transfer.failed}; its amount can be refunded again, and a transfer that pays it after all still completes
 * it (never a withdrawal that would let the merchant pay the same refund twice).
 */
class AbandonedRefundsTest extends PaymentLinksTestBase {

    private static final String ALICE = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    @Autowired
    ExpirySweeper sweeper;

    @Autowired
    DatabaseClient database;

    @Test
    void anInitiatedRefundPastItsExpiryIsAbandonedByTheSweepersPass() {
        MerchantIdentity merchant = merchantWithKey();
        JsonNode link = createOk(merchant, "{\"payment_name\":\"Kettle\",\"amount\":10,\"currency\":\"USDC\"}");
        String id = link.get("id").asString();
        String deposit = link.get("deposit_address").asString();
        reportTransaction(
                        id,
                        "{\"network\":\"Local dev chain\",\"tx_hash\":\"0xab01\"," + transfer(0, TEST_USDC)
                                + ",\"payer_address\":\"" + ALICE + "\",\"crypto_amount\":10,\"status\":\"confirmed\"}")
                .expectStatus()
                .isCreated();
        String refundId = read(refund(merchant, id, "{}").expectStatus().isCreated())
                .get("data")
                .get("id")
                .asString();

        clock.advance(Duration.ofHours(72).minusSeconds(1));
        sweeper.runOnce().block();
        assertThat(latestRefund(merchant, id).get("status").asString())
                .as("not yet")
                .isEqualTo("initiated");

        clock.advance(Duration.ofSeconds(1));
        sweeper.runOnce().block();
        JsonNode abandoned = latestRefund(merchant, id);
        assertThat(abandoned.get("id").asString()).isEqualTo(refundId);
        assertThat(abandoned.get("status").asString()).isEqualTo("failed");
        assertThat(abandoned.get("failure_reason").asString()).isEqualTo("abandoned");
        assertThat(eventTypes(id))
                .containsExactly("payment.created", "payment.completed", "transfer.initiated", "transfer.failed");
        JsonNode failed = lastEvent(id);
        assertThat(failed.get("refund_id").asString()).isEqualTo(refundId);
        assertThat(failed.get("reason").asString()).isEqualTo("abandoned");
        assertThat(failed.get("transaction_hash").isNull()).isTrue();
        sweeper.runOnce().block();
        assertThat(eventTypes(id)).as("abandoned once").hasSize(4);

        // Its transfer, sent after the deadline, still pays it (not a withdrawal that would make the money refundable
        // again, and the merchant pay twice): the refund completes with it and nothing is left to refund.
        JsonNode late = read(reportOutgoing(id, outgoing("0xab02", deposit, ALICE, "10", "confirmed"))
                        .expectStatus()
                        .isCreated())
                .get("data");
        assertThat(late.get("transfer").get("withdrawal").asBoolean()).isFalse();
        assertThat(late.get("transfer").get("refund_id").asString()).isEqualTo(refundId);
        JsonNode paid = latestRefund(merchant, id);
        assertThat(paid.get("status").asString()).isEqualTo("completed");
        assertThat(paid.get("tx_hash").asString()).isEqualTo("0xab02");
        assertThat(paid.has("failure_reason") && !paid.get("failure_reason").isNull())
                .isFalse();
        assertThat(eventTypes(id))
                .containsExactly(
                        "payment.created",
                        "payment.completed",
                        "transfer.initiated",
                        "transfer.failed",
                        "transfer.completed",
                        "payment.refunded");
        assertThat(read(refund(merchant, id, "{}").expectStatus().isEqualTo(409))
                        .get("code")
                        .asString())
                .isEqualTo("nothing_to_refund");
        // A transfer matching no refund at all is still a withdrawal.
        JsonNode sweep = read(reportOutgoing(id, outgoing("0xab03", deposit, ALICE, "3", "confirmed"))
                        .expectStatus()
                        .isCreated())
                .get("data");
        assertThat(sweep.get("transfer").get("withdrawal").asBoolean()).isTrue();
    }

    /** The link's latest refund as the merchant lists it. */
    private JsonNode latestRefund(MerchantIdentity merchant, String id) {
        return read(get(merchant, "/payment_links/" + id + "/refunds")
                        .expectStatus()
                        .isOk())
                .get("data")
                .get("data")
                .get(0);
    }

    private List<String> eventTypes(String linkId) {
        return database.sql("SELECT event_type FROM outbox_event WHERE aggregate_id = :id ORDER BY position")
                .bind("id", linkId)
                .map(row -> row.get("event_type", String.class))
                .all()
                .collectList()
                .block();
    }

    private JsonNode lastEvent(String linkId) {
        List<JsonNode> all = database.sql("SELECT payload FROM outbox_event WHERE aggregate_id = :id ORDER BY position")
                .bind("id", linkId)
                .map(row -> json.readTree(row.get("payload", String.class)))
                .all()
                .collectList()
                .block();
        return all.get(all.size() - 1).get("data");
    }
}
