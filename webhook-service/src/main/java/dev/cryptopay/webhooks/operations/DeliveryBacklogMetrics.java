package dev.cryptopay.webhooks.operations;

import dev.cryptopay.service.background.BackgroundLoop;
import dev.cryptopay.webhooks.config.WebhookProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Backlog gauges from the database, shared by every instance: pending deliveries, the age of the oldest due one
 * (how late delivery is running), failed deliveries, and parked records.
 */
@Component
public class DeliveryBacklogMetrics extends BackgroundLoop {

    private final DatabaseClient database;
    private final WebhookProperties properties;
    private final Clock clock;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong oldestDueAge = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong parked = new AtomicLong();

    public DeliveryBacklogMetrics(
            DatabaseClient database, WebhookProperties properties, Clock clock, MeterRegistry meters) {
        this.database = database;
        this.properties = properties;
        this.clock = clock;
        Gauge.builder("webhook.deliveries.pending", pending, AtomicLong::get)
                .description("Deliveries waiting for an attempt")
                .register(meters);
        Gauge.builder("webhook.deliveries.oldest.due.age", oldestDueAge, AtomicLong::get)
                .baseUnit("seconds")
                .description("How long the oldest due delivery has been waiting")
                .register(meters);
        Gauge.builder("webhook.deliveries.failed", failed, AtomicLong::get)
                .description("Deliveries that used up their schedule")
                .register(meters);
        Gauge.builder("webhook.parked.records", parked, AtomicLong::get)
                .description("Kafka records parked as invalid events")
                .register(meters);
    }

    public Mono<Void> measure() {
        OffsetDateTime now = clock.instant().atOffset(ZoneOffset.UTC);
        return database.sql("""
                        SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
                               min(next_attempt_at) FILTER (WHERE status = 'pending' AND next_attempt_at <= :now)
                                   AS oldest_due,
                               count(*) FILTER (WHERE status = 'failed') AS failed,
                               (SELECT count(*) FROM parked_record) AS parked
                        FROM webhook_delivery""")
                .bind("now", now)
                .map(row -> {
                    pending.set(row.get("pending", Long.class));
                    OffsetDateTime oldest = row.get("oldest_due", OffsetDateTime.class);
                    oldestDueAge.set(
                            oldest == null
                                    ? 0
                                    : Math.max(0, Duration.between(oldest, now).toSeconds()));
                    failed.set(row.get("failed", Long.class));
                    parked.set(row.get("parked", Long.class));
                    return true;
                })
                .one()
                .then();
    }

    @Override
    protected Mono<Duration> runOnce() {
        return measure().thenReturn(properties.metricsInterval());
    }

    @Override
    protected Duration delayAfterFailure() {
        return properties.metricsInterval();
    }
}
