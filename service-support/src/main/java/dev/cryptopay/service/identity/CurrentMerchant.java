package dev.cryptopay.service.identity;

import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import java.util.Optional;
import org.springframework.web.server.ServerWebExchange;

/** The merchant on whose behalf the gateway forwarded this request. */
public final class CurrentMerchant {

    static final String ATTRIBUTE = CurrentMerchant.class.getName() + ".identity";
    static final String CREDENTIAL_ATTRIBUTE = CurrentMerchant.class.getName() + ".credential";

    private CurrentMerchant() {}

    public static Optional<MerchantIdentity> of(ServerWebExchange exchange) {
        return Optional.ofNullable(exchange.getAttribute(ATTRIBUTE));
    }

    /**
     * How the gateway established the merchant: {@link MerchantCredential#PUBLISHABLE_KEY} when the caller only named
     * it with its public key (answer such a caller nothing of the merchant's account), empty without a merchant.
     */
    public static Optional<MerchantCredential> credential(ServerWebExchange exchange) {
        return Optional.ofNullable(exchange.getAttribute(CREDENTIAL_ATTRIBUTE));
    }

    /** The merchant, or a 401 when the request carries no merchant identity (an internal, non-merchant call). */
    public static MerchantIdentity require(ServerWebExchange exchange) {
        return of(exchange)
                .orElseThrow(() -> ApiException.unauthorized(
                        "merchant_identity_missing", "This route needs an authenticated merchant"));
    }
}
