package dev.cryptopay.webhooks.delivery;

import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.webhooks.config.WebhookProperties;
import dev.cryptopay.webhooks.endpoint.HeldDeliveries;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Which due deliveries an instance attempts next, fairly: each endpoint has at most
 * {@code max-in-flight-per-endpoint} attempts in flight and each merchant (per mode) at most
 * {@code max-in-flight-per-merchant}, counted over every instance from the leases in the database, so a slow or
 * failing endpoint can never occupy all of an instance's slots. Within those caps endpoints take turns: the oldest
 * due delivery of every endpoint comes before the second of any. Deliveries of a disabled endpoint are held: kept,
 * never claimed, until the endpoint is enabled again.
 */
@Repository
public class DeliveryClaims implements HeldDeliveries {

    /**
     * One claim at a time over all instances (a transaction-scoped advisory lock), so each sees the leases the others
     * took and the caps hold across instances. A claim is one short statement, which also reads what the attempts need.
     */
    private static final long CLAIM_LOCK = 0x7765_6268_6f6f_6b31L; // "webhook1"

    /** Takes the due deliveries for the free slots: their lease and next attempt move to :lease. */
    private static final String CLAIM = """
            WITH busy AS (
                     SELECT endpoint_id, merchant_id, mode, count(*) AS n FROM webhook_delivery
                     WHERE status = 'pending' AND leased_until > :now
                     GROUP BY endpoint_id, merchant_id, mode),
                 busy_merchant AS (
                     SELECT merchant_id, mode, sum(n) AS n FROM busy GROUP BY merchant_id, mode),
                 candidate AS (
                     SELECT d.id, d.next_attempt_at, d.endpoint_rank, ep.merchant_id, ep.mode
                     FROM webhook_endpoint ep
                     LEFT JOIN busy b ON b.endpoint_id = ep.id
                     CROSS JOIN LATERAL (
                         SELECT id, next_attempt_at, row_number() OVER (ORDER BY next_attempt_at, id) AS endpoint_rank
                         FROM webhook_delivery
                         WHERE endpoint_id = ep.id AND status = 'pending' AND next_attempt_at <= :now
                         ORDER BY next_attempt_at, id
                         LIMIT :perEndpoint) d
                     WHERE (ep.enabled OR ep.deleted_at IS NOT NULL)
                       AND d.endpoint_rank + coalesce(b.n, 0) <= :perEndpoint),
                 ranked AS (
                     SELECT c.*, row_number() OVER (PARTITION BY c.merchant_id, c.mode
                                                    ORDER BY c.endpoint_rank, c.next_attempt_at, c.id)
                                 + coalesce(m.n, 0) AS merchant_slot
                     FROM candidate c LEFT JOIN busy_merchant m ON m.merchant_id = c.merchant_id AND m.mode = c.mode),
                 picked AS (
                     SELECT id FROM ranked WHERE merchant_slot <= :perMerchant
                     ORDER BY endpoint_rank, next_attempt_at, id LIMIT :limit)
            UPDATE webhook_delivery d SET next_attempt_at = :lease, leased_until = :lease
            FROM (SELECT id FROM webhook_delivery
                  WHERE id = ANY(ARRAY(SELECT id FROM picked)) AND status = 'pending' AND next_attempt_at <= :now
                  FOR UPDATE SKIP LOCKED) taken
            WHERE d.id = taken.id
            RETURNING d.*""";

    /** The claim, and what the attempts of the claimed deliveries need, in one statement. */
    private static final String CLAIM_AND_READ = "WITH claimed AS (" + CLAIM + ") SELECT " + DeliveryRepository.COLUMNS
            + ", e.body, e.created_at AS event_created_at, ep.url, ep.secret_encrypted, ep.enabled AS endpoint_enabled, "
            + "(ep.deleted_at IS NOT NULL) AS endpoint_deleted FROM claimed d "
            + "JOIN webhook_event e ON e.id = d.event_id JOIN webhook_endpoint ep ON ep.id = d.endpoint_id";

    private final DatabaseClient database;
    private final TransactionalOperator tx;
    private final WebhookProperties.Delivery settings;

    public DeliveryClaims(DatabaseClient database, TransactionalOperator tx, WebhookProperties properties) {
        this.database = database;
        this.tx = tx;
        this.settings = properties.delivery();
    }

    /**
     * Claims up to {@code limit} due deliveries within the caps — their next_attempt_at and lease move to
     * {@code leaseUntil}, so no instance takes them meanwhile, and they are due again if this instance dies before
     * recording a result — and reads what their attempts need, in the same statement.
     */
    Mono<List<DueDelivery>> claim(Instant now, int limit, Instant leaseUntil) {
        Mono<List<DueDelivery>> claim = database.sql("SELECT pg_advisory_xact_lock(:lock)")
                .bind("lock", CLAIM_LOCK)
                .then()
                .then(database.sql(CLAIM_AND_READ)
                        .bind("now", utc(now))
                        .bind("lease", utc(leaseUntil))
                        .bind("perEndpoint", settings.maxInFlightPerEndpoint())
                        .bind("perMerchant", settings.maxInFlightPerMerchant())
                        .bind("limit", limit)
                        .map(row -> new DueDelivery(
                                DeliveryRepository.read(row),
                                row.get("body", String.class),
                                instant(row.get("event_created_at", OffsetDateTime.class)),
                                row.get("url", String.class),
                                row.get("secret_encrypted", byte[].class),
                                row.get("endpoint_enabled", Boolean.class),
                                row.get("endpoint_deleted", Boolean.class)))
                        .all()
                        .collectList());
        return tx.transactional(claim);
    }

    /** Gives up a claim without an attempt (its endpoint was disabled meanwhile): the delivery is held, not leased. */
    Mono<Void> release(UUID id) {
        return database.sql("UPDATE webhook_delivery SET leased_until = NULL WHERE id = :id AND status = 'pending'")
                .bind("id", id)
                .then();
    }

    /**
     * Resumes the deliveries held while an endpoint was disabled: each is due now. One that had been attempted in its
     * current schedule (or was waiting for a later retry) starts a fresh schedule now; one never attempted is due
     * already and its schedule starts with its first attempt, so it is left as it is. The rows rewritten are those
     * being retried when the endpoint was disabled (about a day's worth), however long it stayed disabled. An attempt
     * still in flight (leased) records its own result.
     *
     * @return how many deliveries got a fresh schedule
     */
    @Override
    public Mono<Long> resumeHeld(UUID endpointId, Instant now) {
        return database.sql("UPDATE webhook_delivery SET cycle_attempts = 0, cycle_started_at = :now, "
                        + "next_attempt_at = :now WHERE endpoint_id = :endpoint AND status = 'pending' "
                        + "AND (cycle_attempts > 0 OR next_attempt_at > :now) "
                        + "AND (leased_until IS NULL OR leased_until <= :now)")
                .bind("now", utc(now))
                .bind("endpoint", endpointId)
                .fetch()
                .rowsUpdated();
    }
}
