package dev.cryptopay.gateway.support;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.auth.keys.SigningKey;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/** A merchant's credentials as a test client holds them. */
public record MerchantKey(UUID merchantId, String apiKey, Mode mode, SigningKey signingKey) {

    public MerchantIdentity identity() {
        return new MerchantIdentity(merchantId, mode);
    }

    public String prefix() {
        return apiKey.substring(0, 12);
    }

    /** The key a {@code POST /account/keys} answer made for the merchant, when the gateway generated its pair. */
    public static MerchantKey created(UUID merchantId, JsonNode created) {
        return new MerchantKey(
                merchantId,
                created.get("api_key").asString(),
                Mode.fromWireName(created.get("mode").asString()),
                SigningKey.parse(created.get("private_key").asString()));
    }
}
