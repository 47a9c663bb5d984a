package dev.cryptopay.auth.internal;

import dev.cryptopay.auth.Mode;
import java.util.Objects;
import java.util.UUID;

/**
 * Who an internal call acts for, as established by the gateway from the API key and forwarded in
 * {@link InternalHeaders#MERCHANT_ID} and {@link InternalHeaders#MERCHANT_MODE}.
 *
 * @param merchantId the merchant
 * @param mode       test or live
 */
public record MerchantIdentity(UUID merchantId, Mode mode) {

    public MerchantIdentity {
        Objects.requireNonNull(merchantId, "merchantId");
        Objects.requireNonNull(mode, "mode");
    }
}
