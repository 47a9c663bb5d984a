package dev.cryptopay.webhooks.intake;

import java.time.Instant;
import java.time.ZoneOffset;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/** Every domain event once, with the exact body later sent to endpoints. */
@Repository
class EventRepository {

    private final DatabaseClient database;

    EventRepository(DatabaseClient database) {
        this.database = database;
    }

    /**
     * Stores the event unless its id is already there: Kafka may hand the same record over again, and producers may
     * publish an event twice.
     *
     * @param source the topic/partition/offset it was read from
     * @return whether it was new
     */
    Mono<Boolean> insertOnce(Event event, String source, Instant receivedAt) {
        return database.sql("INSERT INTO webhook_event (id, merchant_id, mode, event_type, body, created_at, "
                        + "received_at, source) VALUES (:id, :merchant, :mode, :type, :body, :createdAt, :now, "
                        + ":source) ON CONFLICT (id) DO NOTHING")
                .bind("id", event.id())
                .bind("merchant", event.merchant().merchantId())
                .bind("mode", event.merchant().mode().wireName())
                .bind("type", event.type())
                .bind("body", event.body())
                .bind("createdAt", event.createdAt().atOffset(ZoneOffset.UTC))
                .bind("now", receivedAt.atOffset(ZoneOffset.UTC))
                .bind("source", source)
                .fetch()
                .rowsUpdated()
                .map(inserted -> inserted > 0);
    }
}
