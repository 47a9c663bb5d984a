package dev.cryptopay.subscriptions.subscription;

import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.db.SqlValues;
import dev.cryptopay.service.request.Where;
import io.r2dbc.postgresql.codec.Json;
import io.r2dbc.spi.Readable;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores subscribers; every merchant query filters by merchant id and mode. */
@Repository
public class SubscriberRepository {

    static final String COLUMNS = """
            id, merchant_id, mode, plan_id, customer_id, customer_name, customer_email,
            webhook_metadata::text AS webhook_metadata, success_return_url, failure_return_url, status, created_at,
            updated_at""";

    private final DatabaseClient database;

    public SubscriberRepository(DatabaseClient database) {
        this.database = database;
    }

    public Mono<Void> insert(Subscriber subscriber) {
        GenericExecuteSpec spec = database.sql("""
                        INSERT INTO subscriber (id, merchant_id, mode, plan_id, customer_id, customer_name,
                            customer_email, webhook_metadata, success_return_url, failure_return_url, status,
                            created_at, updated_at)
                        VALUES (:id, :merchantId, :mode, :planId, :customerId, :customerName, :customerEmail,
                            :webhookMetadata, :successReturnUrl, :failureReturnUrl, :status, :createdAt, :updatedAt)""")
                .bind("id", subscriber.id())
                .bind("merchantId", subscriber.merchantId())
                .bind("mode", subscriber.mode().wireName())
                .bind("planId", subscriber.planId())
                .bind("status", subscriber.status().wireName())
                .bind("createdAt", utc(subscriber.createdAt()))
                .bind("updatedAt", utc(subscriber.updatedAt()));
        spec = SqlValues.bind(spec, "customerId", subscriber.customerId(), String.class);
        spec = SqlValues.bind(spec, "customerName", subscriber.customerName(), String.class);
        spec = SqlValues.bind(spec, "customerEmail", subscriber.customerEmail(), String.class);
        spec = subscriber.webhookMetadata() == null
                ? spec.bindNull("webhookMetadata", Json.class)
                : spec.bind("webhookMetadata", Json.of(subscriber.webhookMetadata()));
        spec = SqlValues.bind(spec, "successReturnUrl", subscriber.successReturnUrl(), String.class);
        spec = SqlValues.bind(spec, "failureReturnUrl", subscriber.failureReturnUrl(), String.class);
        return spec.then();
    }

    /** Writes what a merchant's update changes. */
    public Mono<Void> update(Subscriber subscriber) {
        GenericExecuteSpec spec = database.sql("""
                        UPDATE subscriber SET customer_name = :customerName, customer_email = :customerEmail,
                               status = :status, updated_at = :updatedAt
                        WHERE id = :id""")
                .bind("status", subscriber.status().wireName())
                .bind("updatedAt", utc(subscriber.updatedAt()))
                .bind("id", subscriber.id());
        spec = SqlValues.bind(spec, "customerName", subscriber.customerName(), String.class);
        spec = SqlValues.bind(spec, "customerEmail", subscriber.customerEmail(), String.class);
        return spec.then();
    }

    /** A subscriber by id alone, for the customer's flows (the id is the secret of the invitation link). */
    public Mono<Subscriber> findAny(UUID id) {
        return database.sql("SELECT " + COLUMNS + " FROM subscriber WHERE id = :id")
                .bind("id", id)
                .map(SubscriberRepository::read)
                .one();
    }

    /** {@link #findAny}, row-locked inside the caller's transaction. */
    public Mono<Subscriber> lockAny(UUID id) {
        return database.sql("SELECT " + COLUMNS + " FROM subscriber WHERE id = :id FOR UPDATE")
                .bind("id", id)
                .map(SubscriberRepository::read)
                .one();
    }

    public Mono<Subscriber> find(MerchantIdentity merchant, UUID id) {
        return select(merchant, id, "");
    }

    /** Loads and row-locks a subscriber inside the caller's transaction. */
    public Mono<Subscriber> lock(MerchantIdentity merchant, UUID id) {
        return select(merchant, id, " FOR UPDATE");
    }

    private Mono<Subscriber> select(MerchantIdentity merchant, UUID id, String lockClause) {
        return database.sql("SELECT " + COLUMNS + " FROM subscriber WHERE id = :id AND merchant_id = :merchant "
                        + "AND mode = :mode" + lockClause)
                .bind("id", id)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(SubscriberRepository::read)
                .one();
    }

    /** The subscribers among these ids, by id; the ids come from rows already read for one merchant (links). */
    public Mono<Map<UUID, Subscriber>> findAll(List<UUID> ids) {
        if (ids.isEmpty()) {
            return Mono.just(Map.of());
        }
        return database.sql("SELECT " + COLUMNS + " FROM subscriber WHERE id = ANY(:ids)")
                .bind("ids", ids.toArray(new UUID[0]))
                .map(SubscriberRepository::read)
                .all()
                .collectMap(Subscriber::id, Function.identity());
    }

    public Mono<Long> count(Where where) {
        return where.bind(database.sql("SELECT count(*) AS total FROM subscriber WHERE " + where.clause()))
                .map(row -> row.get("total", Long.class))
                .one();
    }

    public Flux<Subscriber> page(Where where, int limit, long offset) {
        return where.bind(database.sql("SELECT " + COLUMNS + " FROM subscriber WHERE " + where.clause()
                        + " ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset"))
                .bind("limit", limit)
                .bind("offset", offset)
                .map(SubscriberRepository::read)
                .all();
    }

    static Subscriber read(Readable row) {
        return new Subscriber(
                row.get("id", UUID.class),
                row.get("merchant_id", UUID.class),
                Mode.fromWireName(row.get("mode", String.class)),
                row.get("plan_id", UUID.class),
                row.get("customer_id", String.class),
                row.get("customer_name", String.class),
                row.get("customer_email", String.class),
                row.get("webhook_metadata", String.class),
                row.get("success_return_url", String.class),
                row.get("failure_return_url", String.class),
                SubscriberStatus.fromWireName(row.get("status", String.class)),
                row.get("created_at", OffsetDateTime.class).toInstant(),
                row.get("updated_at", OffsetDateTime.class).toInstant());
    }
}
