package dev.cryptopay.webhooks.event;

import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.auth.internal.MerchantIdentity;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Reads the events intake stored and their deliveries, always within one merchant and mode. A page of events costs
 * two statements (the events, then the deliveries of all of them), plus the count.
 */
@Repository
class EventHistoryRepository {

    private static final String COLUMNS = "e.id, e.event_type, e.created_at, e.object_id, e.body";

    private final DatabaseClient database;

    EventHistoryRepository(DatabaseClient database) {
        this.database = database;
    }

    /** What a list may be filtered by; every member optional. */
    record Filter(UUID objectId, String type, Instant from, Instant to) {}

    /** An event as stored: {@code body} is exactly what its deliveries send. */
    record StoredEvent(UUID id, String type, Instant createdAt, UUID objectId, String body) {}

    /** One delivery of an event, with its endpoint's URL (kept after the endpoint is deleted). */
    record EventDelivery(
            UUID id,
            UUID eventId,
            UUID endpointId,
            String endpointUrl,
            String status,
            int attempts,
            Instant nextAttemptAt,
            Instant lastAttemptAt,
            Integer lastStatusCode,
            Instant createdAt) {}

    Mono<StoredEvent> find(MerchantIdentity merchant, UUID id) {
        return database.sql("SELECT " + COLUMNS + " FROM webhook_event e WHERE e.id = :id "
                        + "AND e.merchant_id = :merchant AND e.mode = :mode")
                .bind("id", id)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(EventHistoryRepository::event)
                .one();
    }

    /** Newest first (by the time the event happened, then id). */
    Flux<StoredEvent> page(MerchantIdentity merchant, Filter filter, int limit, long offset) {
        return filtered(
                        "SELECT " + COLUMNS,
                        " ORDER BY e.created_at DESC, e.id DESC LIMIT :limit OFFSET :offset",
                        merchant,
                        filter)
                .bind("limit", limit)
                .bind("offset", offset)
                .map(EventHistoryRepository::event)
                .all();
    }

    Mono<Long> count(MerchantIdentity merchant, Filter filter) {
        return filtered("SELECT count(*) AS n", "", merchant, filter)
                .map(row -> row.get("n", Long.class))
                .one();
    }

    private DatabaseClient.GenericExecuteSpec filtered(
            String select, String suffix, MerchantIdentity merchant, Filter filter) {
        String sql = select + " FROM webhook_event e WHERE e.merchant_id = :merchant AND e.mode = :mode"
                + (filter.objectId() != null ? " AND e.object_id = :object" : "")
                + (filter.type() != null ? " AND e.event_type = :type" : "")
                + (filter.from() != null ? " AND e.created_at >= :from" : "")
                + (filter.to() != null ? " AND e.created_at <= :to" : "")
                + suffix;
        var spec = database.sql(sql)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName());
        if (filter.objectId() != null) {
            spec = spec.bind("object", filter.objectId());
        }
        if (filter.type() != null) {
            spec = spec.bind("type", filter.type());
        }
        if (filter.from() != null) {
            spec = spec.bind("from", utc(filter.from()));
        }
        if (filter.to() != null) {
            spec = spec.bind("to", utc(filter.to()));
        }
        return spec;
    }

    /** The deliveries of the given events in one statement, each event's oldest first. */
    Flux<EventDelivery> deliveriesOf(MerchantIdentity merchant, Collection<UUID> eventIds) {
        if (eventIds.isEmpty()) {
            return Flux.empty();
        }
        return database.sql("SELECT d.id, d.event_id, d.endpoint_id, p.url, d.status, d.attempts, d.next_attempt_at, "
                        + "d.last_attempt_at, d.last_status_code, d.created_at FROM webhook_delivery d "
                        + "JOIN webhook_endpoint p ON p.id = d.endpoint_id "
                        + "WHERE d.event_id = ANY(:events) AND d.merchant_id = :merchant AND d.mode = :mode "
                        + "ORDER BY d.created_at, d.id")
                .bind("events", eventIds.toArray(UUID[]::new))
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(row -> new EventDelivery(
                        row.get("id", UUID.class),
                        row.get("event_id", UUID.class),
                        row.get("endpoint_id", UUID.class),
                        row.get("url", String.class),
                        row.get("status", String.class),
                        row.get("attempts", Integer.class),
                        instant(row.get("next_attempt_at", OffsetDateTime.class)),
                        instant(row.get("last_attempt_at", OffsetDateTime.class)),
                        row.get("last_status_code", Integer.class),
                        instant(row.get("created_at", OffsetDateTime.class))))
                .all();
    }

    private static StoredEvent event(Readable row) {
        return new StoredEvent(
                row.get("id", UUID.class),
                row.get("event_type", String.class),
                instant(row.get("created_at", OffsetDateTime.class)),
                row.get("object_id", UUID.class),
                row.get("body", String.class));
    }
}
