package dev.cryptopay.webhooks.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.webhooks.WebhookTestBase;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** What on-call sees: lag, backlog and health, measured against the real broker and database. */
class OperationsTest extends WebhookTestBase {

    @Autowired
    ConsumerLagMonitor lag;

    @Autowired
    DeliveryBacklogMetrics backlog;

    @Test
    void measuresConsumerLagPerPartitionFromTheBroker() throws Exception {
        MerchantIdentity merchant = newMerchant();
        String eventId = publish("payment-links.events", merchant, "payment.created", Map.of("id", "x"));
        await("consumed", () -> eventStored(eventId));

        await("offsets committed and lag back to zero", () -> {
            try {
                Map<TopicPartition, Long> measured = lag.measure();
                return measured.keySet().stream().anyMatch(p -> p.topic().equals("payment-links.events"))
                        && measured.values().stream().allMatch(value -> value == 0);
            } catch (Exception e) {
                return false;
            }
        });
        String prometheus = prometheus();
        assertThat(prometheus)
                .contains(
                        "webhook_consumer_lag_records{group=\"webhook-service\",partition=",
                        "topic=\"payment-links.events\"",
                        "webhook_consumer_lag_total_records",
                        "webhook_consumer_newest_event_age_seconds");
    }

    @Test
    void exposesTheDeliveryBacklogAndParkedRecords() {
        MerchantIdentity merchant = newMerchant();
        register(merchant, "http://127.0.0.1:9/unreachable", List.of("payment.created"));
        publishRaw("payment-links.events", merchant.merchantId().toString(), "{broken");
        String eventId = publish("payment-links.events", merchant, "payment.created", Map.of("id", "y"));
        await("delivery created", () -> deliveriesOfEvent(eventId) == 1);
        clock.advance(java.time.Duration.ofMinutes(3));

        backlog.measure().block();

        String prometheus = prometheus();
        assertThat(metric(prometheus, "webhook_deliveries_pending")).isGreaterThanOrEqualTo(1);
        assertThat(metric(prometheus, "webhook_deliveries_oldest_due_age_seconds"))
                .isGreaterThanOrEqualTo(180);
        assertThat(metric(prometheus, "webhook_parked_records")).isGreaterThanOrEqualTo(1);
        assertThat(prometheus).contains("webhook_delivery_event_to_success_seconds");
    }

    @Test
    void theBacklogCountsPendingAndFailedDeliveriesAndNotTheSucceededOnes() {
        MerchantIdentity merchant = newMerchant();
        register(merchant, "http://127.0.0.1:9/unreachable", List.of("payment.created"));
        publishEvents(merchant, "payment.created", 3, 3);
        backlog.measure().block();
        double pending = metric(prometheus(), "webhook_deliveries_pending");
        double failed = metric(prometheus(), "webhook_deliveries_failed");

        database.sql("UPDATE webhook_delivery SET status = CASE WHEN id = (SELECT min(id::text)::uuid FROM "
                        + "webhook_delivery WHERE merchant_id = :merchant) THEN 'failed' ELSE 'succeeded' END, "
                        + "next_attempt_at = NULL WHERE merchant_id = :merchant AND status = 'pending' "
                        + "AND id <> (SELECT max(id::text)::uuid FROM webhook_delivery WHERE merchant_id = :merchant)")
                .bind("merchant", merchant.merchantId())
                .then()
                .block();
        backlog.measure().block();

        // Of the three: one failed, one succeeded, one still pending.
        assertThat(metric(prometheus(), "webhook_deliveries_pending")).isEqualTo(pending - 2);
        assertThat(metric(prometheus(), "webhook_deliveries_failed")).isEqualTo(failed + 1);
    }

    @Test
    void healthShowsDatabaseAndKafka() {
        JsonNode health =
                read(web.get().uri("/actuator/health").exchange().expectStatus().isOk());
        assertThat(health.get("status").asString()).isEqualTo("UP");
        assertThat(health.get("components").get("kafka").get("status").asString())
                .isEqualTo("UP");
        assertThat(health.get("components").get("r2dbc").get("status").asString())
                .isEqualTo("UP");
    }
}
