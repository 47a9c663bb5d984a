package dev.cryptopay.webhooks.endpoint;

import dev.cryptopay.auth.Mode;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A registered endpoint; {@code secretEncrypted} never leaves the service except as a delivery signature. */
public record WebhookEndpoint(
        UUID id,
        UUID merchantId,
        Mode mode,
        String url,
        String description,
        List<String> eventTypes,
        byte[] secretEncrypted,
        boolean enabled,
        Instant createdAt,
        Instant updatedAt) {}
