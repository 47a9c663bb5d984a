package dev.cryptopay.paymentlinks.receiving;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.bip32.ExtendedPublicKey;
import java.time.Instant;
import java.util.UUID;

/**
 * A merchant's registered extended public key for one mode.
 *
 * @param nextIndex the next child index a new link gets
 */
public record ReceivingKey(
        UUID id,
        UUID merchantId,
        Mode mode,
        ExtendedPublicKey key,
        long nextIndex,
        boolean current,
        Instant createdAt,
        Instant updatedAt) {}
