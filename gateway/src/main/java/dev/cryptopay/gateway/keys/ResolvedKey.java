package dev.cryptopay.gateway.keys;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.auth.keys.VerificationKey;
import java.util.UUID;

/**
 * What the authentication path needs to know about a presented API key: whose it is, how to verify its signatures
 * and whether it may still be used.
 *
 * @param keyId           the key's row id; rate-limit buckets and replay entries are keyed by it, never by the key
 * @param displayPrefix   loggable prefix, e.g. {@code mk_test_ABCD}
 * @param identity        merchant and mode forwarded to services
 * @param verificationKey the merchant's public key, parsed once
 * @param merchant        the merchant row (for {@code GET /account})
 * @param status          active or revoked
 */
public record ResolvedKey(
        UUID keyId,
        String displayPrefix,
        MerchantIdentity identity,
        VerificationKey verificationKey,
        Merchant merchant,
        KeyStatus status) {

    public boolean isActive() {
        return status == KeyStatus.ACTIVE;
    }
}
