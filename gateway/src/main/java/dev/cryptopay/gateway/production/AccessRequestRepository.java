package dev.cryptopay.gateway.production;

import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** SQL for {@code production_access_request}; every read joins the merchant for its name and e-mail address. */
public class AccessRequestRepository {

    private static final String SELECT = "SELECT r.id, r.merchant_id, m.name AS m_name, m.email AS m_email, r.company, "
            + "r.website, r.use_case, r.status, r.reason, r.created_at, r.decided_at FROM production_access_request r "
            + "JOIN merchant m ON m.id = r.merchant_id ";

    private final DatabaseClient db;

    public AccessRequestRepository(DatabaseClient db) {
        this.db = db;
    }

    /**
     * Stores a new pending request unless the merchant already has one open (the partial unique index decides, so two
     * concurrent requests make one); answers whether it was stored.
     */
    public Mono<Boolean> insertPending(
            UUID id, UUID merchantId, String company, String website, String useCase, Instant now) {
        return db.sql("INSERT INTO production_access_request (id, merchant_id, company, website, use_case, status, "
                        + "created_at) VALUES (:id, :merchantId, :company, :website, :useCase, 'pending', :now) "
                        + "ON CONFLICT (merchant_id) WHERE status = 'pending' DO NOTHING")
                .bind("id", id)
                .bind("merchantId", merchantId)
                .bind("company", text(company))
                .bind("website", text(website))
                .bind("useCase", useCase)
                .bind("now", toDb(now))
                .fetch()
                .rowsUpdated()
                .map(rows -> rows == 1);
    }

    public Mono<AccessRequest> find(UUID id) {
        return db.sql(SELECT + "WHERE r.id = :id")
                .bind("id", id)
                .map(AccessRequestRepository::row)
                .one();
    }

    /** The merchant's most recent request, or empty. */
    public Mono<AccessRequest> latestOf(UUID merchantId) {
        return db.sql(SELECT + "WHERE r.merchant_id = :merchantId ORDER BY r.created_at DESC, r.id DESC LIMIT 1")
                .bind("merchantId", merchantId)
                .map(AccessRequestRepository::row)
                .one();
    }

    /** Whether any of the merchant's requests was approved. */
    public Mono<Boolean> isApproved(UUID merchantId) {
        return db.sql("SELECT EXISTS (SELECT 1 FROM production_access_request WHERE merchant_id = :merchantId "
                        + "AND status = 'approved') AS approved")
                .bind("merchantId", merchantId)
                .map(row -> Boolean.TRUE.equals(row.get("approved", Boolean.class)))
                .one();
    }

    /** One page of the requests in a status, oldest first (the order an operator works through them). */
    public Flux<AccessRequest> findByStatus(AccessStatus status, long offset, int limit) {
        return db.sql(SELECT + "WHERE r.status = :status ORDER BY r.created_at, r.id LIMIT :limit OFFSET :offset")
                .bind("status", status.wireName())
                .bind("limit", limit)
                .bind("offset", offset)
                .map(AccessRequestRepository::row)
                .all();
    }

    public Mono<Long> countByStatus(AccessStatus status) {
        return db.sql("SELECT count(*) AS n FROM production_access_request WHERE status = :status")
                .bind("status", status.wireName())
                .map(row -> row.get("n", Long.class))
                .one();
    }

    /** Decides a pending request; answers whether it was pending (so this call decided it). */
    public Mono<Boolean> decide(UUID id, AccessStatus decision, String reason, Instant now) {
        return db.sql("UPDATE production_access_request SET status = :status, reason = :reason, decided_at = :now "
                        + "WHERE id = :id AND status = 'pending'")
                .bind("status", decision.wireName())
                .bind("reason", text(reason))
                .bind("now", toDb(now))
                .bind("id", id)
                .fetch()
                .rowsUpdated()
                .map(rows -> rows == 1);
    }

    private static AccessRequest row(Readable row) {
        return new AccessRequest(
                row.get("id", UUID.class),
                row.get("merchant_id", UUID.class),
                row.get("m_name", String.class),
                row.get("m_email", String.class),
                row.get("company", String.class),
                row.get("website", String.class),
                row.get("use_case", String.class),
                AccessStatus.fromWireName(row.get("status", String.class)),
                row.get("reason", String.class),
                instant(row, "created_at"),
                instant(row, "decided_at"));
    }

    private static Instant instant(Readable row, String column) {
        OffsetDateTime value = row.get(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** A nullable text parameter (R2DBC needs the type of a null). */
    private static Parameter text(String value) {
        return Parameter.fromOrEmpty(value, String.class);
    }

    private static OffsetDateTime toDb(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
