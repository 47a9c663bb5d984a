package dev.cryptopay.service.outbox;

import dev.cryptopay.service.events.EventEnvelope;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.NoTransactionException;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Appends events to the outbox table. Call it inside the same reactive transaction as the state change; the
 * {@link DatabaseClient} joins that transaction, so the row and its events commit or roll back together. Once that
 * transaction has committed, {@code committed} runs (the relay's wake-up), so events are published at once instead of
 * at the relay's next poll.
 */
public class OutboxWriter {

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ISO_INSTANT.withZone(ZoneOffset.UTC);

    private final DatabaseClient database;
    private final JsonMapper json;
    private final Runnable committed;

    public OutboxWriter(DatabaseClient database, JsonMapper json, Runnable committed) {
        this.database = database;
        this.json = json;
        this.committed = committed;
    }

    public Mono<Void> append(String topic, DomainEvent event) {
        return database.sql("""
                        INSERT INTO outbox_event
                            (event_id, topic, record_key, event_type, aggregate_type, aggregate_id, payload, created_at)
                        VALUES (:eventId, :topic, :recordKey, :eventType, :aggregateType, :aggregateId, :payload,
                                :createdAt)""")
                .bind("eventId", event.id())
                .bind("topic", topic)
                .bind("recordKey", event.merchantId().toString())
                .bind("eventType", event.type().wireName())
                .bind("aggregateType", event.aggregateType())
                .bind("aggregateId", event.aggregateId())
                .bind("payload", envelope(event))
                .bind("createdAt", event.createdAt().atOffset(ZoneOffset.UTC))
                .then()
                .then(afterCommit());
    }

    /** Runs {@code committed} after the surrounding transaction commits, or now when there is none. */
    private Mono<Void> afterCommit() {
        return TransactionSynchronizationManager.forCurrentTransaction()
                .flatMap(transaction -> {
                    if (!transaction.isSynchronizationActive()) {
                        return Mono.fromRunnable(committed);
                    }
                    transaction.registerSynchronization(new TransactionSynchronization() {
                        @Override
                        public Mono<Void> afterCommit() {
                            return Mono.fromRunnable(committed);
                        }
                    });
                    return Mono.<Void>empty();
                })
                .onErrorResume(NoTransactionException.class, none -> Mono.fromRunnable(committed))
                .then();
    }

    /** The record value, serialised once here so the relay publishes exactly these bytes. */
    String envelope(DomainEvent event) {
        return json.writeValueAsString(new EventEnvelope(
                event.id().toString(),
                event.type().wireName(),
                TIMESTAMP.format(event.createdAt()),
                event.merchantId().toString(),
                event.mode().wireName(),
                event.data()));
    }
}
