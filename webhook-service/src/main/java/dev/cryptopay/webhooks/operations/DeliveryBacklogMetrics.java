package dev.cryptopay.webhooks.operations;

import dev.cryptopay.service.background.BackgroundLoop;
import dev.cryptopay.service.db.SqlValues;
import dev.cryptopay.webhooks.config.WebhookProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Backlog gauges from the database, shared by every instance: pending deliveries, those of them held for a disabled
 * endpoint, due ones waiting behind their endpoint's or merchant's in-flight cap (throttled), the age of the oldest
 * due one that is neither (how late the scheduler itself is running), failed deliveries, disabled endpoints, and
 * parked records. Only pending and failed rows are read, each through its partial index: the succeeded deliveries
 * kept as history (nearly all rows) are never scanned.
 */
@Component
public class DeliveryBacklogMetrics extends BackgroundLoop {

    private static final String MEASURE = """
            WITH busy AS (
                     SELECT endpoint_id, merchant_id, mode, count(*) AS n FROM webhook_delivery
                     WHERE status = 'pending' AND leased_until > :now
                     GROUP BY endpoint_id, merchant_id, mode),
                 busy_merchant AS (
                     SELECT merchant_id, mode, sum(n) AS n FROM busy GROUP BY merchant_id, mode),
                 pending AS (
                     SELECT d.next_attempt_at, (NOT ep.enabled AND ep.deleted_at IS NULL) AS held,
                            (coalesce(b.n, 0) >= :perEndpoint OR coalesce(m.n, 0) >= :perMerchant) AS capped
                     FROM webhook_delivery d JOIN webhook_endpoint ep ON ep.id = d.endpoint_id
                     LEFT JOIN busy b ON b.endpoint_id = d.endpoint_id
                     LEFT JOIN busy_merchant m ON m.merchant_id = d.merchant_id AND m.mode = d.mode
                     WHERE d.status = 'pending')
            SELECT count(*) AS pending,
                   count(*) FILTER (WHERE held) AS held,
                   count(*) FILTER (WHERE next_attempt_at <= :now AND NOT held AND capped) AS throttled,
                   min(next_attempt_at) FILTER (WHERE next_attempt_at <= :now AND NOT held AND NOT capped)
                       AS oldest_due,
                   (SELECT count(*) FROM webhook_delivery WHERE status = 'failed') AS failed,
                   (SELECT count(*) FROM parked_record) AS parked,
                   (SELECT count(*) FROM webhook_endpoint WHERE NOT enabled AND deleted_at IS NULL)
                       AS disabled_endpoints
            FROM pending""";

    private final DatabaseClient database;
    private final WebhookProperties properties;
    private final Clock clock;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong held = new AtomicLong();
    private final AtomicLong throttled = new AtomicLong();
    private final AtomicLong oldestDueAge = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong parked = new AtomicLong();
    private final AtomicLong disabledEndpoints = new AtomicLong();

    public DeliveryBacklogMetrics(
            DatabaseClient database, WebhookProperties properties, Clock clock, MeterRegistry meters) {
        this.database = database;
        this.properties = properties;
        this.clock = clock;
        gauge(meters, "webhook.deliveries.pending", pending, "Deliveries waiting for an attempt");
        gauge(meters, "webhook.deliveries.held", held, "Pending deliveries held because their endpoint is disabled");
        gauge(
                meters,
                "webhook.deliveries.throttled",
                throttled,
                "Due deliveries waiting because their endpoint or " + "merchant has its cap of attempts in flight");
        Gauge.builder("webhook.deliveries.oldest.due.age", oldestDueAge, AtomicLong::get)
                .baseUnit("seconds")
                .description("How long the oldest due delivery that is neither held nor throttled has been waiting")
                .register(meters);
        gauge(meters, "webhook.deliveries.failed", failed, "Deliveries that used up their schedule");
        gauge(meters, "webhook.parked.records", parked, "Kafka records parked as invalid events");
        gauge(
                meters,
                "webhook.endpoints.disabled",
                disabledEndpoints,
                "Endpoints disabled after failing for days, " + "until their merchant enables them");
    }

    private static void gauge(MeterRegistry meters, String name, AtomicLong value, String description) {
        Gauge.builder(name, value, AtomicLong::get).description(description).register(meters);
    }

    public Mono<Void> measure() {
        OffsetDateTime now = SqlValues.utc(clock.instant());
        return database.sql(MEASURE)
                .bind("now", now)
                .bind("perEndpoint", properties.delivery().maxInFlightPerEndpoint())
                .bind("perMerchant", properties.delivery().maxInFlightPerMerchant())
                .map(row -> {
                    pending.set(row.get("pending", Long.class));
                    held.set(row.get("held", Long.class));
                    throttled.set(row.get("throttled", Long.class));
                    OffsetDateTime oldest = row.get("oldest_due", OffsetDateTime.class);
                    oldestDueAge.set(
                            oldest == null
                                    ? 0
                                    : Math.max(0, Duration.between(oldest, now).toSeconds()));
                    failed.set(row.get("failed", Long.class));
                    parked.set(row.get("parked", Long.class));
                    disabledEndpoints.set(row.get("disabled_endpoints", Long.class));
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
