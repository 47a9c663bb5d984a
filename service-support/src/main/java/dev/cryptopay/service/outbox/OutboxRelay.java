package dev.cryptopay.service.outbox;

import dev.cryptopay.service.background.BackgroundLoop;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Publishes unpublished outbox rows to Kafka in insertion order and marks them published.
 *
 * <p>Each batch runs in one database transaction that first takes a transaction-scoped advisory lock: with several
 * service instances only one publishes at a time, which keeps each merchant's events in order and avoids publishing
 * a row twice in normal operation. If Kafka is down the send fails, the transaction rolls back, the rows stay
 * unpublished and the relay retries with backoff. A crash between Kafka's acknowledgement and the commit republishes
 * the batch; consumers dedupe on the event id (delivery is at least once).
 */
public class OutboxRelay extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);
    /** Arbitrary constant naming the relay's advisory lock inside this service's database. */
    private static final long RELAY_LOCK = 0x6f7574626f78L;

    private static final Duration PURGE_EVERY = Duration.ofMinutes(10);
    /** The backlog gauges are refreshed at most this often: under load the relay passes many times a second. */
    private static final Duration MEASURE_EVERY = Duration.ofSeconds(1);

    private static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    private final DatabaseClient database;
    private final TransactionalOperator transactions;
    private final KafkaTemplate<String, String> kafka;
    private final OutboxProperties properties;
    private final Clock clock;
    private final AtomicLong pendingRows = new AtomicLong();
    private final AtomicLong oldestPendingAgeSeconds = new AtomicLong();
    private final Counter published;
    private final Counter failures;
    private final Every measuring = new Every(MEASURE_EVERY);
    private final Every purging = new Every(PURGE_EVERY);
    private int consecutiveFailures;

    public OutboxRelay(
            DatabaseClient database,
            TransactionalOperator transactions,
            KafkaTemplate<String, String> kafka,
            OutboxProperties properties,
            Clock clock,
            MeterRegistry meters) {
        this.database = database;
        this.transactions = transactions;
        this.kafka = kafka;
        this.properties = properties;
        this.clock = clock;
        Gauge.builder("outbox.pending", pendingRows, AtomicLong::get)
                .description("Outbox rows not yet published to Kafka")
                .register(meters);
        Gauge.builder("outbox.oldest.pending.age", oldestPendingAgeSeconds, AtomicLong::get)
                .baseUnit("seconds")
                .description("Age of the oldest unpublished outbox row")
                .register(meters);
        this.published = Counter.builder("outbox.published")
                .description("Events published to Kafka")
                .register(meters);
        this.failures = Counter.builder("outbox.publish.failures")
                .description("Failed publish attempts")
                .register(meters);
    }

    /** Publishes everything pending now; returns how many rows this call published. */
    public Mono<Integer> publishPending() {
        return publishBatch()
                .expand(count -> count == properties.batchSize() ? publishBatch() : Mono.empty())
                .reduce(0, Integer::sum);
    }

    Mono<Integer> publishBatch() {
        Mono<Integer> batch = database.sql("SELECT pg_try_advisory_xact_lock(:lock) AS locked")
                .bind("lock", RELAY_LOCK)
                .map(row -> Boolean.TRUE.equals(row.get("locked", Boolean.class)))
                .one()
                .flatMap(locked -> locked ? claimAndSend() : Mono.just(0));
        return transactions.transactional(batch);
    }

    private Mono<Integer> claimAndSend() {
        return database.sql("""
                        SELECT position, event_id, topic, record_key, event_type, aggregate_type, aggregate_id, payload
                        FROM outbox_event WHERE published_at IS NULL
                        ORDER BY position LIMIT :limit FOR UPDATE""")
                .bind("limit", properties.batchSize())
                .map(row -> new OutboxRow(
                        row.get("position", Long.class),
                        row.get("event_id", java.util.UUID.class).toString(),
                        row.get("topic", String.class),
                        row.get("record_key", String.class),
                        row.get("event_type", String.class),
                        row.get("aggregate_type", String.class),
                        row.get("aggregate_id", String.class),
                        row.get("payload", String.class)))
                .all()
                .collectList()
                .flatMap(rows -> rows.isEmpty()
                        ? Mono.just(0)
                        : send(rows).then(markPublished(rows)).thenReturn(rows.size()));
    }

    /** Hands the whole batch to the producer in order, then waits for every acknowledgement. */
    private Mono<Void> send(List<OutboxRow> rows) {
        return Mono.fromCallable(() -> CompletableFuture.allOf(
                        rows.stream().map(row -> kafka.send(record(row))).toArray(CompletableFuture[]::new)))
                .subscribeOn(Schedulers.boundedElastic()) // send() may block while fetching metadata
                .flatMap(Mono::fromFuture)
                .timeout(properties.sendTimeout().plusSeconds(5))
                .then();
    }

    private Mono<Void> markPublished(List<OutboxRow> rows) {
        Long[] positions = rows.stream().map(OutboxRow::position).toArray(Long[]::new);
        return database.sql("UPDATE outbox_event SET published_at = :now WHERE position = ANY(:positions)")
                .bind("now", OffsetDateTime.now(clock))
                .bind("positions", positions)
                .then()
                .doOnSuccess(ignored -> published.increment(rows.size()));
    }

    private static ProducerRecord<String, String> record(OutboxRow row) {
        ProducerRecord<String, String> record = new ProducerRecord<>(row.topic(), row.recordKey(), row.payload());
        record.headers().add(EventHeaders.EVENT_ID, row.eventId().getBytes(StandardCharsets.UTF_8));
        record.headers().add(EventHeaders.EVENT_TYPE, row.eventType().getBytes(StandardCharsets.UTF_8));
        record.headers().add(EventHeaders.AGGREGATE_TYPE, row.aggregateType().getBytes(StandardCharsets.UTF_8));
        record.headers().add(EventHeaders.AGGREGATE_ID, row.aggregateId().getBytes(StandardCharsets.UTF_8));
        return record;
    }

    /** Refreshes the backlog gauges on-call watches, unless they were refreshed less than a second ago. */
    Mono<Void> measureBacklogIfDue() {
        return measuring.due(clock.instant()) ? measureBacklog() : Mono.empty();
    }

    /** Refreshes the backlog gauges on-call watches. */
    Mono<Void> measureBacklog() {
        return database.sql("SELECT count(*) AS pending, min(created_at) AS oldest FROM outbox_event "
                        + "WHERE published_at IS NULL")
                .map(row -> {
                    pendingRows.set(row.get("pending", Long.class));
                    OffsetDateTime oldest = row.get("oldest", OffsetDateTime.class);
                    oldestPendingAgeSeconds.set(
                            oldest == null
                                    ? 0
                                    : Math.max(
                                            0,
                                            Duration.between(oldest.toInstant(), clock.instant())
                                                    .toSeconds()));
                    return true;
                })
                .one()
                .then();
    }

    private Mono<Void> purgeIfDue() {
        Instant now = clock.instant();
        if (!purging.due(now)) {
            return Mono.empty();
        }
        return database.sql("DELETE FROM outbox_event WHERE published_at < :cutoff")
                .bind("cutoff", now.minus(properties.retention()).atOffset(ZoneOffset.UTC))
                .then();
    }

    /**
     * One pass of the loop: publish, measure (at most every second), purge (every ten minutes); answers how long to
     * wait before the next pass.
     */
    @Override
    protected Mono<Duration> runOnce() {
        return publishPending()
                .map(count -> {
                    consecutiveFailures = 0;
                    return properties.pollInterval();
                })
                .onErrorResume(failure -> {
                    failures.increment();
                    consecutiveFailures++;
                    Duration backoff = backoff();
                    log.warn(
                            "Outbox publish failed ({} in a row), retrying in {}: {}",
                            consecutiveFailures,
                            backoff,
                            failure.toString());
                    return Mono.just(backoff);
                })
                .flatMap(delay -> measureBacklogIfDue()
                        .then(purgeIfDue())
                        .onErrorResume(failure -> {
                            log.warn("Outbox housekeeping failed: {}", failure.toString());
                            return Mono.empty();
                        })
                        .thenReturn(delay));
    }

    private Duration backoff() {
        Duration delay = properties.pollInterval().multipliedBy(1L << Math.min(consecutiveFailures, 10));
        return delay.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : delay;
    }

    @Override
    protected Duration delayAfterFailure() {
        return MAX_BACKOFF;
    }

    @Override
    protected boolean enabled() {
        return properties.relayEnabled();
    }

    /** Housekeeping the relay's passes run at most once per interval. */
    private static final class Every {

        private final Duration interval;
        private volatile Instant last = Instant.EPOCH;

        Every(Duration interval) {
            this.interval = interval;
        }

        /** Whether it is due at {@code now}; when it is, the next interval starts now. */
        boolean due(Instant now) {
            if (Duration.between(last, now).compareTo(interval) < 0) {
                return false;
            }
            last = now;
            return true;
        }
    }

    private record OutboxRow(
            long position,
            String eventId,
            String topic,
            String recordKey,
            String eventType,
            String aggregateType,
            String aggregateId,
            String payload) {}
}
