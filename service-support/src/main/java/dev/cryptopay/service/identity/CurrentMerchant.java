package dev.cryptopay.service.identity;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import java.util.Optional;
import org.springframework.web.server.ServerWebExchange;

/** The merchant on whose behalf the gateway forwarded this request. */
public final class CurrentMerchant {

    static final String ATTRIBUTE = CurrentMerchant.class.getName() + ".identity";

    private CurrentMerchant() {}

    public static Optional<MerchantIdentity> of(ServerWebExchange exchange) {
        return Optional.ofNullable(exchange.getAttribute(ATTRIBUTE));
    }

    /** The merchant, or a 401 when the request carries no merchant identity (an internal, non-merchant call). */
    public static MerchantIdentity require(ServerWebExchange exchange) {
        return of(exchange)
                .orElseThrow(() -> ApiException.unauthorized(
                        "merchant_identity_missing", "This route needs an authenticated merchant"));
    }
}
