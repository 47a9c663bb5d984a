package dev.cryptopay.service.outbox;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Notify;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One thing that happened to an aggregate, as every consumer sees it. {@code data} is a record (or a JSON tree)
 * rendered with the service's JSON rules. The Kafka record value is the envelope
 * {@code {id, type, created_at, merchant_id, mode, data}} (and {@code notify} when it is not null); the aggregate
 * names travel as record headers.
 *
 * @param notifyTo whom notification-service may e-mail about the event, or null ({@link Notify})
 */
public record DomainEvent(
        UUID id,
        EventType type,
        Instant createdAt,
        UUID merchantId,
        Mode mode,
        String aggregateType,
        String aggregateId,
        Object data,
        Notify notifyTo) {

    public DomainEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(merchantId, "merchantId");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(aggregateType, "aggregateType");
        Objects.requireNonNull(aggregateId, "aggregateId");
        Objects.requireNonNull(data, "data");
    }

    /** A new event with a random id. */
    public static DomainEvent of(
            EventType type,
            Instant createdAt,
            UUID merchantId,
            Mode mode,
            String aggregateType,
            String aggregateId,
            Object data) {
        return new DomainEvent(
                UUID.randomUUID(), type, createdAt, merchantId, mode, aggregateType, aggregateId, data, null);
    }

    /** This event with a {@code notify} member (null: none). */
    public DomainEvent withNotify(Notify value) {
        return new DomainEvent(id, type, createdAt, merchantId, mode, aggregateType, aggregateId, data, value);
    }
}
