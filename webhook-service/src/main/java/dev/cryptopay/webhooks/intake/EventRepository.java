package dev.cryptopay.webhooks.intake;

import static dev.cryptopay.service.db.SqlValues.utc;

import java.time.Instant;
import java.util.Collection;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
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
     * An event as read from Kafka.
     *
     * @param source the topic/partition/offset it was read from
     */
    record Received(Event event, String source) {}

    /**
     * Stores the events whose id is not there yet, in one statement: Kafka may hand the same record over again, and
     * producers may publish an event twice.
     *
     * @return the ids of the events stored now
     */
    Mono<Set<UUID>> insertNew(Collection<Received> received, Instant receivedAt) {
        if (received.isEmpty()) {
            return Mono.just(Set.of());
        }
        return database.sql("""
                        INSERT INTO webhook_event (id, merchant_id, mode, event_type, body, created_at, received_at,
                                                   source, object_id)
                        SELECT id, merchant_id, mode, event_type, body, created_at, :now, source, object_id
                        FROM unnest(CAST(:ids AS uuid[]), CAST(:merchants AS uuid[]), CAST(:modes AS text[]),
                                    CAST(:types AS text[]), CAST(:bodies AS text[]),
                                    CAST(:createdAt AS timestamptz[]), CAST(:sources AS text[]),
                                    CAST(:objects AS uuid[]))
                             AS e(id, merchant_id, mode, event_type, body, created_at, source, object_id)
                        ON CONFLICT (id) DO NOTHING
                        RETURNING id""")
                .bind("ids", received.stream().map(r -> r.event().id()).toArray(UUID[]::new))
                .bind(
                        "merchants",
                        received.stream()
                                .map(r -> r.event().merchant().merchantId())
                                .toArray(UUID[]::new))
                .bind(
                        "modes",
                        received.stream()
                                .map(r -> r.event().merchant().mode().wireName())
                                .toArray(String[]::new))
                .bind("types", received.stream().map(r -> r.event().type()).toArray(String[]::new))
                .bind("bodies", received.stream().map(r -> r.event().body()).toArray(String[]::new))
                .bind(
                        "createdAt",
                        received.stream()
                                .map(r -> r.event().createdAt().toString())
                                .toArray(String[]::new))
                .bind("sources", received.stream().map(Received::source).toArray(String[]::new))
                .bind(
                        "objects",
                        received.stream().map(r -> r.event().objectId()).toArray(UUID[]::new))
                .bind("now", utc(receivedAt))
                .map(row -> row.get("id", UUID.class))
                .all()
                .collect(Collectors.toSet());
    }
}
