package dev.cryptopay.service.outbox;

import dev.cryptopay.service.events.EventEnvelope;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.UnaryOperator;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
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

    private static final String COLUMNS =
            "(event_id, topic, record_key, event_type, aggregate_type, aggregate_id, payload, created_at)";
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
        return bind(database.sql("INSERT INTO outbox_event " + COLUMNS + " VALUES " + row(0)), 0, topic, event)
                .then()
                .then(afterCommit());
    }

    /**
     * Makes a change and appends the events it emitted in one statement: one round trip, atomic without a transaction
     * around it (a data-modifying {@code WITH}). {@code change} is one INSERT, UPDATE or DELETE ending in
     * {@code RETURNING} (any column); {@code bindChange} binds its named parameters, none of which may start with
     * {@code outbox}. The events are appended only when the change returned a row; answers whether it did. Inside a
     * transaction the statement joins it and the relay's wake-up waits for the commit, as with {@link #append}.
     */
    public Mono<Boolean> appendWith(
            String change, UnaryOperator<GenericExecuteSpec> bindChange, String topic, List<DomainEvent> events) {
        if (events.isEmpty()) {
            throw new IllegalArgumentException("appendWith needs at least one event");
        }
        StringJoiner rows = new StringJoiner(",\n    ");
        for (int i = 0; i < events.size(); i++) {
            rows.add(row(i));
        }
        GenericExecuteSpec spec = bindChange.apply(database.sql("WITH changed AS (\n" + change + "\n)\n"
                + "INSERT INTO outbox_event " + COLUMNS + "\n"
                + "SELECT * FROM (VALUES\n    " + rows + "\n) AS event\n"
                + "WHERE EXISTS (SELECT FROM changed)"));
        for (int i = 0; i < events.size(); i++) {
            spec = bind(spec, i, topic, events.get(i));
        }
        return spec.fetch()
                .rowsUpdated()
                .flatMap(appended ->
                        appended == 0 ? Mono.just(false) : afterCommit().thenReturn(true));
    }

    /** The values of the {@code i}-th event's row, as named parameters (typed: a row may stand in a VALUES list). */
    private static String row(int i) {
        String p = ":outbox" + i;
        return "(CAST(" + p + "EventId AS UUID), " + p + "Topic, " + p + "RecordKey, " + p + "EventType, " + p
                + "AggregateType, " + p + "AggregateId, " + p + "Payload, CAST(" + p + "CreatedAt AS TIMESTAMPTZ))";
    }

    /** Binds the parameters of {@link #row row(i)} to {@code event}. */
    private GenericExecuteSpec bind(GenericExecuteSpec spec, int i, String topic, DomainEvent event) {
        String p = "outbox" + i;
        return spec.bind(p + "EventId", event.id())
                .bind(p + "Topic", topic)
                .bind(p + "RecordKey", event.merchantId().toString())
                .bind(p + "EventType", event.type().wireName())
                .bind(p + "AggregateType", event.aggregateType())
                .bind(p + "AggregateId", event.aggregateId())
                .bind(p + "Payload", envelope(event))
                .bind(p + "CreatedAt", event.createdAt().atOffset(ZoneOffset.UTC));
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
                event.data(),
                event.notifyTo()));
    }
}
