package dev.cryptopay.paymentlinks.checkout;

import dev.cryptopay.checkoutui.CheckoutHeaders;
import org.springframework.stereotype.Component;

/**
 * checkout-ui's security headers on every response under {@code /checkout} (pages, JSON, streams, assets and errors
 * alike): the strict Content-Security-Policy, {@code nosniff}, no referrer, no framing, and {@code Cache-Control:
 * no-store} unless the route set its own (the assets do).
 */
@Component
class CheckoutSecurityHeaders extends CheckoutHeaders {

    CheckoutSecurityHeaders() {
        super("/checkout");
    }
}
