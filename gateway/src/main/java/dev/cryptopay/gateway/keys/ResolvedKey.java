package dev.cryptopay.gateway.keys;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.auth.keys.VerificationKey;
import java.util.Set;
import java.util.UUID;

/**
 * What the authentication path needs to know about a presented key: whose it is, how to verify its signatures
 * and whether it may still be used.
 *
 * @param keyId           the key's row id; rate-limit buckets and replay entries are keyed by it, never by the key
 * @param kind            API key or publishable key
 * @param displayPrefix   loggable prefix, e.g. {@code mk_test_ABCD} or {@code pk_live_WXYZ}
 * @param identity        merchant and mode forwarded to services (the mode is the key's own)
 * @param verificationKey the merchant's public key, parsed once; null for a publishable key, which signs nothing
 * @param merchant        the merchant row (for {@code GET /account})
 * @param status          active or revoked
 * @param scopes          what an API key may do ({@link KeyScope}); empty for a publishable key
 */
public record ResolvedKey(
        UUID keyId,
        KeyKind kind,
        String displayPrefix,
        MerchantIdentity identity,
        VerificationKey verificationKey,
        Merchant merchant,
        KeyStatus status,
        Set<KeyScope> scopes) {

    public boolean isActive() {
        return status == KeyStatus.ACTIVE;
    }
}
