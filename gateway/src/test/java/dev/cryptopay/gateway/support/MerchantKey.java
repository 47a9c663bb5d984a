package dev.cryptopay.gateway.support;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.auth.keys.SigningKey;
import java.util.UUID;

/** A merchant's credentials as a test client holds them. */
public record MerchantKey(UUID merchantId, String apiKey, Mode mode, SigningKey signingKey) {

    public MerchantIdentity identity() {
        return new MerchantIdentity(merchantId, mode);
    }

    public String prefix() {
        return apiKey.substring(0, 12);
    }
}
