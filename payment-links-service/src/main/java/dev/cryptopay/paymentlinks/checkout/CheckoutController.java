package dev.cryptopay.paymentlinks.checkout;

import dev.cryptopay.service.error.ApiException;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The customer's checkout routes, public through the gateway ({@code /checkout/**}, no merchant signature): the page,
 * its status as JSON, the status as Server-Sent Events, and a QR code of the page's address as an SVG image (for the
 * merchant dashboard, so a customer can open the checkout with a phone). An unknown or malformed {@code payment_id} is
 * a 404 (an HTML page for the page route, the problem body otherwise), never a 500.
 */
@RestController
class CheckoutController {

    static final MediaType HTML = MediaType.parseMediaType("text/html;charset=utf-8");
    static final MediaType SVG = MediaType.parseMediaType("image/svg+xml;charset=utf-8");

    /**
     * A link's address never changes, so its QR code may be kept; a day bounds how long a changed {@code
     * checkout-url} takes to show. Answers for unknown ids are not kept (the security headers' {@code no-store}).
     */
    static final CacheControl QR_CODE_LIFETIME =
            CacheControl.maxAge(Duration.ofDays(1)).cachePublic();

    private final CheckoutService service;
    private final CheckoutPage page;
    private final CheckoutStreams streams;

    CheckoutController(CheckoutService service, CheckoutPage page, CheckoutStreams streams) {
        this.service = service;
        this.page = page;
        this.streams = streams;
    }

    @GetMapping("/checkout/payment_link")
    Mono<ResponseEntity<String>> page(@RequestParam(name = "payment_id", required = false) String paymentId) {
        return paymentId(paymentId)
                .map(id -> service.view(id)
                        .map(view -> ResponseEntity.ok().contentType(HTML).body(page.render(view))))
                .orElseGet(Mono::empty)
                .switchIfEmpty(Mono.fromSupplier(() -> ResponseEntity.status(HttpStatus.NOT_FOUND)
                        .contentType(HTML)
                        .body(page.notFound())));
    }

    @GetMapping(path = "/checkout/payment_link/status", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<CheckoutStatus> status(@RequestParam(name = "payment_id", required = false) String paymentId) {
        return found(paymentId).map(CheckoutStatus::of);
    }

    /**
     * The current status at once, then one {@code status} event per visible change (read every
     * {@code payment-links.checkout.poll-interval}), a comment line every {@code heartbeat-interval}; the stream ends
     * after a terminal state or after {@code stream-lifetime}. Beyond {@code max-streams} open streams on this
     * instance: 503 with {@code Retry-After}.
     */
    @GetMapping(path = "/checkout/payment_link/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    Flux<ServerSentEvent<CheckoutStatus>> events(
            @RequestParam(name = "payment_id", required = false) String paymentId, ServerWebExchange exchange) {
        return found(paymentId)
                .flatMapMany(
                        first -> streams.stream(exchange, service.watch(first).map(CheckoutStatus::of)));
    }

    /**
     * A QR code of the link's {@code payment_url} (the checkout page's address, not the EIP-681 request the page's
     * own QR code carries), drawn as the page draws its code: an image a page shows with {@code <img>} from this
     * origin (the dashboard's Content-Security-Policy allows {@code img-src 'self'}).
     */
    @GetMapping("/checkout/payment_link/qr.svg")
    Mono<ResponseEntity<String>> qrCode(@RequestParam(name = "payment_id", required = false) String paymentId) {
        return paymentId(paymentId)
                .map(service::paymentUrl)
                .orElseGet(Mono::empty)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Payment not found")))
                .map(url -> ResponseEntity.ok()
                        .contentType(SVG)
                        .cacheControl(QR_CODE_LIFETIME)
                        .body(QrCodeSvg.render(url, "QR code of the checkout address " + url, "qr-code")));
    }

    private Mono<CheckoutView> found(String paymentId) {
        return paymentId(paymentId)
                .map(service::view)
                .orElseGet(Mono::empty)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Payment not found")));
    }

    /** The id when the text is a UUID; anything else names no payment. */
    private static Optional<UUID> paymentId(String text) {
        if (text == null || text.length() != 36) {
            return Optional.empty();
        }
        try {
            return Optional.of(UUID.fromString(text));
        } catch (IllegalArgumentException malformed) {
            return Optional.empty();
        }
    }
}
