package dev.cryptopay.webhooks.delivery;

import java.time.Instant;
import java.util.UUID;

/** One event to be delivered to one endpoint, and where its schedule stands. */
public record Delivery(
        UUID id,
        UUID eventId,
        UUID endpointId,
        String eventType,
        DeliveryStatus status,
        int attempts,
        int cycleAttempts,
        Instant cycleStartedAt,
        Instant nextAttemptAt,
        Instant lastAttemptAt,
        Integer lastStatusCode,
        String lastError,
        Instant succeededAt,
        Instant createdAt) {}
