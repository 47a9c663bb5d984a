package dev.cryptopay.paymentlinks.checkout;

import dev.cryptopay.checkoutui.LiveStreams;
import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.service.error.ApiException;
import org.springframework.http.HttpStatus;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;

/**
 * The checkouts' event streams on this instance (checkout-ui's {@link LiveStreams}): each with
 * {@code payment-links.checkout.heartbeat-interval} and {@code stream-lifetime}, at most {@code max-streams} open, so
 * a crowd of open checkouts cannot exhaust the instance. Beyond, 503 {@code too_many_streams} with
 * {@code Retry-After}; the browser then falls back to polling the status route.
 */
@Component
public class CheckoutStreams {

    private final LiveStreams streams;

    public CheckoutStreams(PaymentLinksProperties properties) {
        PaymentLinksProperties.Checkout settings = properties.checkout();
        this.streams = new LiveStreams(
                settings.maxStreams(),
                settings.heartbeatInterval(),
                settings.idleTimeout(),
                settings.streamLifetime(),
                () -> new ApiException(
                        HttpStatus.SERVICE_UNAVAILABLE,
                        "too_many_streams",
                        "Too many open status streams; poll /checkout/payment_link/status instead"));
    }

    /** The statuses as Server-Sent Events, or the refusal when every place is taken. */
    Flux<ServerSentEvent<CheckoutStatus>> stream(ServerWebExchange exchange, Flux<CheckoutStatus> statuses) {
        return streams.open(exchange, statuses);
    }

    /** How many streams are open now. */
    public int open() {
        return streams.openStreams();
    }

    /** The most streams this instance keeps open. */
    public int max() {
        return streams.maxStreams();
    }
}
