package dev.cryptopay.gateway.keys;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.keys.KeyAlgorithm;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/** One row of {@code api_key}; never holds the key itself, only its hash (not even that is carried here). */
public record StoredApiKey(
        UUID id,
        String displayPrefix,
        UUID merchantId,
        Mode mode,
        KeyAlgorithm algorithm,
        String publicKeyPem,
        KeyStatus status,
        Instant createdAt,
        Instant lastUsedAt,
        Instant revokedAt,
        Set<KeyScope> scopes) {}
