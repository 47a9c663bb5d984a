package dev.cryptopay.subscriptions.page;

import dev.cryptopay.checkoutui.CheckoutHeaders;
import org.springframework.stereotype.Component;

/**
 * checkout-ui's security headers (the payment checkout's) on every response of the subscribe page's routes, under
 * {@code /checkout/subscribe}: pages, JSON, streams, assets and errors alike.
 */
@Component
class SubscribeHeaders extends CheckoutHeaders {

    SubscribeHeaders() {
        super("/checkout/subscribe");
    }
}
