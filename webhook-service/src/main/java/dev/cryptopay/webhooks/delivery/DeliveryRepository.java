package dev.cryptopay.webhooks.delivery;

import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.auth.internal.MerchantIdentity;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The delivery schedule and attempt log, in PostgreSQL so a restart loses nothing. */
@Repository
public class DeliveryRepository {

    static final String COLUMNS = "d.id, d.event_id, d.endpoint_id, d.event_type, d.status, d.attempts, "
            + "d.cycle_attempts, d.cycle_started_at, d.next_attempt_at, d.last_attempt_at, d.last_status_code, "
            + "d.last_error, d.succeeded_at, d.created_at";

    private final DatabaseClient database;

    public DeliveryRepository(DatabaseClient database) {
        this.database = database;
    }

    /** A delivery to store, with the merchant it belongs to. */
    public record NewDelivery(Delivery delivery, MerchantIdentity merchant) {}

    /** Stores new deliveries in one statement; a second one of the same event to the same endpoint is ignored. */
    public Mono<Void> insertAll(List<NewDelivery> rows) {
        if (rows.isEmpty()) {
            return Mono.empty();
        }
        return database.sql("""
                        INSERT INTO webhook_delivery (id, event_id, endpoint_id, merchant_id, mode, event_type, status,
                                                      cycle_started_at, next_attempt_at, created_at)
                        SELECT * FROM unnest(CAST(:ids AS uuid[]), CAST(:events AS uuid[]), CAST(:endpoints AS uuid[]),
                                             CAST(:merchants AS uuid[]), CAST(:modes AS text[]),
                                             CAST(:types AS text[]), CAST(:statuses AS text[]),
                                             CAST(:cycleStarted AS timestamptz[]), CAST(:next AS timestamptz[]),
                                             CAST(:created AS timestamptz[]))
                        ON CONFLICT DO NOTHING""")
                .bind("ids", column(rows, row -> row.delivery().id(), UUID[]::new))
                .bind("events", column(rows, row -> row.delivery().eventId(), UUID[]::new))
                .bind("endpoints", column(rows, row -> row.delivery().endpointId(), UUID[]::new))
                .bind("merchants", column(rows, row -> row.merchant().merchantId(), UUID[]::new))
                .bind("modes", column(rows, row -> row.merchant().mode().wireName(), String[]::new))
                .bind("types", column(rows, row -> row.delivery().eventType(), String[]::new))
                .bind("statuses", column(rows, row -> row.delivery().status().wireName(), String[]::new))
                .bind(
                        "cycleStarted",
                        column(rows, row -> row.delivery().cycleStartedAt().toString(), String[]::new))
                .bind("next", column(rows, row -> row.delivery().nextAttemptAt().toString(), String[]::new))
                .bind("created", column(rows, row -> row.delivery().createdAt().toString(), String[]::new))
                .then();
    }

    private static <R, T> T[] column(List<R> rows, Function<R, T> value, IntFunction<T[]> array) {
        return rows.stream().map(value).toArray(array);
    }

    /** An instant as PostgreSQL reads it into a timestamptz array element; null stays null. */
    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    /** One attempt's result to store: {@code after} is the state {@link Delivery#recordAttempt} moved {@code before} to. */
    public record AttemptRecord(Delivery before, Delivery after, AttemptResult result) {}

    /**
     * Stores attempts' results in one statement: each delivery's new state and its attempt log entry, and for each
     * success its endpoint's run of failures ended (no write when there was none). Each row is guarded by the attempt
     * count it started from, so a result that arrives after another instance took over the delivery is dropped
     * instead of counted twice. The counters are incremented in place rather than overwritten, so a manual retry
     * that reset the cycle while the attempt was in flight keeps its fresh count.
     *
     * @return the ids of the deliveries whose attempt was recorded
     */
    public Mono<Set<UUID>> saveAttempts(List<AttemptRecord> attempts) {
        if (attempts.isEmpty()) {
            return Mono.just(Set.of());
        }
        // A cycle's first attempt may move its start (see Delivery.recordAttempt); a restart meanwhile keeps its own.
        return database.sql("""
                        WITH attempt AS (
                                 SELECT * FROM unnest(CAST(:ids AS uuid[]), CAST(:attemptsBefore AS int[]),
                                                      CAST(:statuses AS text[]), CAST(:cycleStarted AS timestamptz[]),
                                                      CAST(:next AS timestamptz[]), CAST(:started AS timestamptz[]),
                                                      CAST(:codes AS int[]), CAST(:errors AS text[]),
                                                      CAST(:succeeded AS timestamptz[]), CAST(:latencies AS bigint[]),
                                                      CAST(:outcomes AS text[]), CAST(:attemptErrors AS text[]),
                                                      CAST(:excerpts AS text[]))
                                     AS a(id, attempts_before, status, cycle_started, next, started, code, error,
                                          succeeded, latency, outcome, attempt_error, excerpt)),
                             saved AS (
                                 UPDATE webhook_delivery d SET status = a.status, attempts = d.attempts + 1,
                                     cycle_started_at = CASE WHEN d.cycle_attempts = 0
                                         THEN GREATEST(d.cycle_started_at, a.cycle_started) ELSE d.cycle_started_at END,
                                     cycle_attempts = d.cycle_attempts + 1, next_attempt_at = a.next,
                                     leased_until = NULL, last_attempt_at = a.started, last_status_code = a.code,
                                     last_error = a.error, succeeded_at = a.succeeded
                                 FROM attempt a
                                 WHERE d.id = a.id AND d.status = 'pending' AND d.attempts = a.attempts_before
                                 RETURNING d.id, d.attempts, d.endpoint_id, d.status),
                             logged AS (
                                 INSERT INTO webhook_attempt (delivery_id, attempt_number, started_at, latency_ms,
                                                              status_code, outcome, error, response_excerpt)
                                 SELECT s.id, s.attempts, a.started, a.latency, a.code, a.outcome, a.attempt_error,
                                        a.excerpt
                                 FROM saved s JOIN attempt a ON a.id = s.id),
                             healthy AS (
                                 UPDATE webhook_endpoint SET failing_since = NULL, failed_attempts = 0
                                 WHERE id IN (SELECT endpoint_id FROM saved WHERE status = 'succeeded')
                                   AND (failing_since IS NOT NULL OR failed_attempts > 0))
                        SELECT id FROM saved""")
                .bind("ids", column(attempts, a -> a.before().id(), UUID[]::new))
                .bind("attemptsBefore", column(attempts, a -> a.before().attempts(), Integer[]::new))
                .bind("statuses", column(attempts, a -> a.after().status().wireName(), String[]::new))
                .bind("cycleStarted", column(attempts, a -> text(a.after().cycleStartedAt()), String[]::new))
                .bind("next", column(attempts, a -> text(a.after().nextAttemptAt()), String[]::new))
                .bind("started", column(attempts, a -> text(a.after().lastAttemptAt()), String[]::new))
                .bind("codes", column(attempts, a -> a.after().lastStatusCode(), Integer[]::new))
                .bind("errors", column(attempts, a -> truncate(a.after().lastError(), 500), String[]::new))
                .bind("succeeded", column(attempts, a -> text(a.after().succeededAt()), String[]::new))
                .bind("latencies", column(attempts, a -> a.result().latencyMillis(), Long[]::new))
                .bind("outcomes", column(attempts, a -> a.result().outcome(), String[]::new))
                .bind("attemptErrors", column(attempts, a -> truncate(a.result().error(), 500), String[]::new))
                .bind("excerpts", column(attempts, a -> a.result().responseExcerpt(), String[]::new))
                .map(row -> row.get("id", UUID.class))
                .all()
                .collect(Collectors.toUnmodifiableSet());
    }

    /** {@link #saveAttempts} for one attempt; answers whether it was recorded. */
    public Mono<Boolean> saveAttempt(AttemptRecord attempt) {
        return saveAttempts(List.of(attempt))
                .map(saved -> saved.contains(attempt.before().id()));
    }

    /** Stores a delivery {@link Delivery#abandon abandoned} while pending; does nothing if it moved on meanwhile. */
    public Mono<Void> saveAbandoned(Delivery abandoned) {
        return database.sql("UPDATE webhook_delivery SET status = :status, next_attempt_at = NULL, "
                        + "leased_until = NULL, last_error = :reason WHERE id = :id AND status = 'pending'")
                .bind("status", abandoned.status().wireName())
                .bind("reason", abandoned.lastError())
                .bind("id", abandoned.id())
                .then();
    }

    public Mono<Delivery> find(MerchantIdentity merchant, UUID id) {
        return database.sql("SELECT " + COLUMNS + " FROM webhook_delivery d WHERE d.id = :id "
                        + "AND d.merchant_id = :merchant AND d.mode = :mode")
                .bind("id", id)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(DeliveryRepository::read)
                .one();
    }

    public Flux<Delivery> page(
            MerchantIdentity merchant,
            UUID endpointId,
            DeliveryStatus status,
            String eventType,
            int limit,
            long offset) {
        return endpointFilter(
                        "SELECT " + COLUMNS,
                        " ORDER BY d.created_at DESC, d.id DESC LIMIT :limit OFFSET :offset",
                        merchant,
                        endpointId,
                        status,
                        eventType)
                .bind("limit", limit)
                .bind("offset", offset)
                .map(DeliveryRepository::read)
                .all();
    }

    public Mono<Long> count(MerchantIdentity merchant, UUID endpointId, DeliveryStatus status, String eventType) {
        return endpointFilter("SELECT count(*) AS n", "", merchant, endpointId, status, eventType)
                .map(row -> row.get("n", Long.class))
                .one();
    }

    /** The deliveries of one endpoint of this merchant and mode, optionally of one status and event type. */
    private DatabaseClient.GenericExecuteSpec endpointFilter(
            String select,
            String suffix,
            MerchantIdentity merchant,
            UUID endpointId,
            DeliveryStatus status,
            String eventType) {
        String sql = select + " FROM webhook_delivery d WHERE d.endpoint_id = :endpoint AND d.merchant_id = :merchant "
                + "AND d.mode = :mode" + (status != null ? " AND d.status = :status" : "")
                + (eventType != null ? " AND d.event_type = :type" : "") + suffix;
        var spec = database.sql(sql)
                .bind("endpoint", endpointId)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName());
        if (status != null) {
            spec = spec.bind("status", status.wireName());
        }
        if (eventType != null) {
            spec = spec.bind("type", eventType);
        }
        return spec;
    }

    public Flux<Attempt> attempts(UUID deliveryId) {
        return database.sql("SELECT attempt_number, started_at, latency_ms, status_code, outcome, error, "
                        + "response_excerpt FROM webhook_attempt WHERE delivery_id = :id ORDER BY attempt_number")
                .bind("id", deliveryId)
                .map(row -> new Attempt(
                        row.get("attempt_number", Integer.class),
                        instant(row.get("started_at", OffsetDateTime.class)),
                        row.get("latency_ms", Long.class),
                        row.get("status_code", Integer.class),
                        row.get("outcome", String.class),
                        row.get("error", String.class),
                        row.get("response_excerpt", String.class)))
                .all();
    }

    /**
     * Stores a {@link Delivery#restart restarted} delivery. Only the fresh schedule is written, so an attempt
     * recorded meanwhile is kept, just as when the restart was one statement.
     */
    public Mono<Void> saveRestarted(Delivery restarted) {
        return database.sql("UPDATE webhook_delivery SET status = :status, cycle_attempts = :cycleAttempts, "
                        + "cycle_started_at = :cycleStarted, next_attempt_at = :next WHERE id = :id")
                .bind("status", restarted.status().wireName())
                .bind("cycleAttempts", restarted.cycleAttempts())
                .bind("cycleStarted", utc(restarted.cycleStartedAt()))
                .bind("next", utc(restarted.nextAttemptAt()))
                .bind("id", restarted.id())
                .then();
    }

    /**
     * {@link Delivery#recover Recovers} the oldest {@code limit} failed deliveries of an endpoint created since the
     * given time, in one statement: the same rule (failed only; a fresh schedule due now), applied without loading
     * each delivery. Bounded, so one call never rewrites an unbounded number of rows in one transaction or makes
     * more deliveries due at once than the scheduler works through in a few passes.
     */
    public Mono<Long> recoverFailed(MerchantIdentity merchant, UUID endpointId, Instant since, Instant now, int limit) {
        return database.sql("UPDATE webhook_delivery SET status = 'pending', cycle_attempts = 0, "
                        + "cycle_started_at = :now, next_attempt_at = :now WHERE id IN (SELECT id FROM "
                        + "webhook_delivery WHERE endpoint_id = :endpoint AND merchant_id = :merchant AND mode = :mode "
                        + "AND status = 'failed' AND created_at >= :since ORDER BY created_at, id LIMIT :limit "
                        + "FOR UPDATE SKIP LOCKED)")
                .bind("now", utc(now))
                .bind("endpoint", endpointId)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .bind("since", utc(since))
                .bind("limit", limit)
                .fetch()
                .rowsUpdated();
    }

    /** Whether failed deliveries of the endpoint created since the given time remain. */
    public Mono<Boolean> hasFailed(MerchantIdentity merchant, UUID endpointId, Instant since) {
        return database.sql("SELECT EXISTS (SELECT 1 FROM webhook_delivery WHERE endpoint_id = :endpoint "
                        + "AND merchant_id = :merchant AND mode = :mode AND status = 'failed' "
                        + "AND created_at >= :since) AS more")
                .bind("endpoint", endpointId)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .bind("since", utc(since))
                .map(row -> row.get("more", Boolean.class))
                .one();
    }

    /** One attempt as kept in the log. */
    public record Attempt(
            int number,
            Instant startedAt,
            long latencyMillis,
            Integer statusCode,
            String outcome,
            String error,
            String responseExcerpt) {}

    static Delivery read(Readable row) {
        return new Delivery(
                row.get("id", UUID.class),
                row.get("event_id", UUID.class),
                row.get("endpoint_id", UUID.class),
                row.get("event_type", String.class),
                DeliveryStatus.fromWireName(row.get("status", String.class)),
                row.get("attempts", Integer.class),
                row.get("cycle_attempts", Integer.class),
                instant(row.get("cycle_started_at", OffsetDateTime.class)),
                instant(row.get("next_attempt_at", OffsetDateTime.class)),
                instant(row.get("last_attempt_at", OffsetDateTime.class)),
                row.get("last_status_code", Integer.class),
                row.get("last_error", String.class),
                instant(row.get("succeeded_at", OffsetDateTime.class)),
                instant(row.get("created_at", OffsetDateTime.class)));
    }

    private static String truncate(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }
}
