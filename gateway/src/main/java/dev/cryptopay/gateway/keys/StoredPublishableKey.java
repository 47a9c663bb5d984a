package dev.cryptopay.gateway.keys;

import dev.cryptopay.auth.Mode;
import java.time.Instant;
import java.util.UUID;

/**
 * One row of {@code publishable_key}. The key is kept in full: it is public by design (it ships in customer-side
 * code), so the admin listing can show it again instead of forcing a new key on a merchant who lost track of it.
 */
public record StoredPublishableKey(
        UUID id,
        String value,
        UUID merchantId,
        Mode mode,
        KeyStatus status,
        Instant createdAt,
        Instant lastUsedAt,
        Instant revokedAt) {

    /** The loggable first 12 characters, e.g. {@code pk_test_ABCD}. */
    public String displayPrefix() {
        return value.substring(0, 12);
    }
}
