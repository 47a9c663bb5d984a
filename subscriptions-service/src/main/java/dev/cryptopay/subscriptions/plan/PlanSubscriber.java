package dev.cryptopay.subscriptions.plan;

import java.time.Instant;
import java.util.UUID;

/** A subscriber as a plan lists it. */
public record PlanSubscriber(
        UUID id,
        UUID planId,
        String customerId,
        String customerName,
        String customerEmail,
        String status,
        Instant createdAt) {}
