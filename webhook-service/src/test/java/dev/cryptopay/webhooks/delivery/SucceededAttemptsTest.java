package dev.cryptopay.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.webhooks.WebhookTestBase;
import dev.cryptopay.webhooks.delivery.DeliveryRepository.AttemptRecord;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Successes finishing together are stored together, each exactly as a success stored alone, against real PostgreSQL. */
class SucceededAttemptsTest extends WebhookTestBase {

    private static final AttemptResult OK = new AttemptResult(200, "success", null, 12, null, "ok");

    @Autowired
    private SucceededAttempts successes;

    @Autowired
    private RetrySchedule schedule;

    @Autowired
    private MeterRegistry meters;

    @Test
    void successesFinishingTogetherShareAWriteAndEachIsStoredWithItsAttemptAndTheEndpointsHealth() {
        MerchantIdentity merchant = newMerchant();
        UUID endpoint = endpoint(merchant);
        publishEvents(merchant, "payment.created", 12, 12);
        database.sql("UPDATE webhook_endpoint SET failing_since = now() - interval '1 hour', failed_attempts = 7 "
                        + "WHERE id = :id")
                .bind("id", endpoint)
                .then()
                .block();
        List<Delivery> pending = pending(merchant);
        Instant started = clock.instant();
        DistributionSummary batches =
                meters.get("webhook.delivery.success.batch").summary();
        long writesBefore = batches.count();

        // All twelve are handed over before the first write answers: the first is written alone, the rest after it.
        List<Boolean> recorded = Flux.merge(pending.stream()
                        .map(delivery -> record(delivery, OK, started))
                        .toList())
                .collectList()
                .block();

        assertThat(recorded).hasSize(12).containsOnly(true);
        long writes = batches.count() - writesBefore;
        assertThat(writes).as("writes for 12 successes").isBetween(1L, 11L);
        assertThat(count(
                        "SELECT count(*) FROM webhook_delivery WHERE merchant_id = :merchant AND status = 'succeeded' "
                                + "AND attempts = 1 AND cycle_attempts = 1 AND next_attempt_at IS NULL "
                                + "AND leased_until IS NULL AND last_status_code = 200 AND last_error IS NULL "
                                + "AND succeeded_at IS NOT NULL AND last_attempt_at IS NOT NULL",
                        merchant))
                .isEqualTo(12);
        assertThat(count(
                        "SELECT count(*) FROM webhook_attempt a JOIN webhook_delivery d ON d.id = a.delivery_id "
                                + "WHERE d.merchant_id = :merchant AND a.attempt_number = 1 AND a.status_code = 200 "
                                + "AND a.outcome = 'success' AND a.latency_ms = 12 AND a.response_excerpt = 'ok' "
                                + "AND a.error IS NULL",
                        merchant))
                .isEqualTo(12);
        assertThat(count(
                        "SELECT count(*) FROM webhook_endpoint WHERE merchant_id = :merchant "
                                + "AND failing_since IS NULL AND failed_attempts = 0",
                        merchant))
                .as("the success ended the endpoint's run of failures")
                .isEqualTo(1);
    }

    @Test
    void aResultForADeliveryThatMovedOnIsDroppedWhileTheOthersInItsWriteAreStored() {
        MerchantIdentity merchant = newMerchant();
        endpoint(merchant);
        publishEvents(merchant, "payment.created", 3, 3);
        List<Delivery> pending = pending(merchant);
        Delivery movedOn = pending.get(0);
        // Another instance recorded an attempt of this delivery after this instance's claim had lapsed.
        database.sql("UPDATE webhook_delivery SET attempts = attempts + 1 WHERE id = :id")
                .bind("id", movedOn.id())
                .then()
                .block();
        Instant started = clock.instant();

        Map<UUID, Boolean> recorded = Flux.merge(pending.stream()
                        .map(delivery -> record(delivery, OK, started).map(saved -> Map.entry(delivery.id(), saved)))
                        .toList())
                .collectMap(Map.Entry::getKey, Map.Entry::getValue)
                .block();

        assertThat(recorded).containsEntry(movedOn.id(), false);
        assertThat(recorded.values().stream().filter(Boolean::booleanValue)).hasSize(2);
        assertThat(deliveryStatus(movedOn.id())).isEqualTo("pending");
        assertThat(attemptsLogged(movedOn.id())).isZero();
        pending.stream()
                .skip(1)
                .forEach(stored -> assertThat(attemptsLogged(stored.id())).isEqualTo(1));
    }

    @Test
    void aWriteThatFailsFailsEveryAttemptInItAndStoresNoneOfThem() {
        MerchantIdentity merchant = newMerchant();
        endpoint(merchant);
        publishEvents(merchant, "payment.created", 2, 2);
        List<Delivery> pending = pending(merchant);
        Instant started = clock.instant();
        // PostgreSQL text cannot hold NUL (the sender strips it from real responses): this write fails as a whole.
        AttemptResult unstorable = new AttemptResult(200, "success", null, 5, null, "bad\u0000byte");

        List<String> outcomes = Flux.merge(List.of(
                        record(pending.get(0), OK, started).map(String::valueOf).onErrorReturn("error"),
                        record(pending.get(1), unstorable, started)
                                .map(String::valueOf)
                                .onErrorReturn("error")))
                .collectList()
                .block();

        // Either both shared the failing write, or the first was written alone before it; never half of a write.
        assertThat(outcomes).contains("error");
        List<UUID> stored = pending.stream()
                .map(Delivery::id)
                .filter(id -> attemptsLogged(id) == 1)
                .collect(Collectors.toList());
        assertThat(stored).doesNotContain(pending.get(1).id());
        assertThat(deliveryStatus(pending.get(1).id())).isEqualTo("pending");
        assertThat(outcomes.stream().filter("true"::equals)).hasSize(stored.size());

        // The recorder keeps going after a failed write.
        assertThat(record(pending.get(1), OK, started).block()).isTrue();
        assertThat(deliveryStatus(pending.get(1).id())).isEqualTo("succeeded");
    }

    private Mono<Boolean> record(Delivery delivery, AttemptResult result, Instant started) {
        return successes.record(new AttemptRecord(
                delivery,
                delivery.recordAttempt(result, started, schedule, started).state(),
                result));
    }

    private UUID endpoint(MerchantIdentity merchant) {
        // Nothing is sent here: the attempts' results are handed to the recorder directly.
        return UUID.fromString(register(merchant, "http://127.0.0.1:9/never-called", List.of("payment.created"))
                .get("id")
                .asString());
    }

    private List<Delivery> pending(MerchantIdentity merchant) {
        return database.sql("SELECT " + DeliveryRepository.COLUMNS + " FROM webhook_delivery d "
                        + "WHERE d.merchant_id = :merchant AND d.status = 'pending' ORDER BY d.created_at, d.id")
                .bind("merchant", merchant.merchantId())
                .map(DeliveryRepository::read)
                .all()
                .collectList()
                .block();
    }

    private long attemptsLogged(UUID delivery) {
        return database.sql("SELECT count(*) FROM webhook_attempt WHERE delivery_id = :id")
                .bind("id", delivery)
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
    }
}
