package dev.cryptopay.gateway.securitylog;

import dev.cryptopay.auth.Mode;
import java.time.Instant;
import java.util.UUID;

/**
 * One entry of the security log: what happened ({@code action}, about {@code targetId}), by which API key, from which
 * client address, when.
 */
public record SecurityEvent(
        UUID id,
        UUID merchantId,
        Mode mode,
        SecurityAction action,
        UUID keyId,
        String keyPrefix,
        String clientAddress,
        UUID targetId,
        Instant createdAt) {}
