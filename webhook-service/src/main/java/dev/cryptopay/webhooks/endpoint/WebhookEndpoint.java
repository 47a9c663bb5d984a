package dev.cryptopay.webhooks.endpoint;

import dev.cryptopay.auth.Mode;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A registered endpoint; {@code secretEncrypted} never leaves the service except as a delivery signature.
 *
 * @param enabled        false once disabled (its deliveries are held until it is enabled again) or deleted
 * @param failingSince   when the current run of failed attempts began; null unless the last recorded attempt failed
 * @param disabledAt     when it was disabled automatically; null while enabled
 * @param disabledReason why, in words a merchant can act on; null while enabled
 */
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
        Instant updatedAt,
        Instant failingSince,
        Instant disabledAt,
        String disabledReason) {

    /** A new endpoint: enabled, never failed. */
    public static WebhookEndpoint registered(
            UUID id,
            UUID merchantId,
            Mode mode,
            String url,
            String description,
            List<String> eventTypes,
            byte[] secretEncrypted,
            Instant now) {
        return new WebhookEndpoint(
                id, merchantId, mode, url, description, eventTypes, secretEncrypted, true, now, now, null, null, null);
    }

    /** The same endpoint with another stored secret. */
    public WebhookEndpoint withSecret(byte[] secret) {
        return new WebhookEndpoint(
                id,
                merchantId,
                mode,
                url,
                description,
                eventTypes,
                secret,
                enabled,
                createdAt,
                updatedAt,
                failingSince,
                disabledAt,
                disabledReason);
    }
}
