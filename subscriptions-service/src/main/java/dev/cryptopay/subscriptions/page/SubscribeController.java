package dev.cryptopay.subscriptions.page;

import dev.cryptopay.checkoutui.LiveStreams;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.FieldError;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.plan.Addresses;
import dev.cryptopay.subscriptions.subscription.CustomerResponses.Preparation;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The customer's subscribe page routes, public through the gateway ({@code /checkout/subscribe/**}, no merchant
 * signature): the page, its status as JSON and as Server-Sent Events, the wallet's kit, and the enrolment (JSON from
 * the page's script, a form post from its by-hand instructions). A missing or malformed {@code subscriber_id} is a
 * 400 and an unknown one a 404 — an HTML page for the page route, the problem body otherwise — never a 500.
 */
@RestController
class SubscribeController {

    static final MediaType HTML = MediaType.parseMediaType("text/html;charset=utf-8");
    /** The largest by-hand form body read; the form has three short fields. */
    static final int MAX_FORM_BYTES = 16 * 1024;

    private final SubscribePageService service;
    private final SubscribePage page;
    private final SubscriptionsProperties.Checkout settings;
    private final LiveStreams streams;
    private final JsonMapper json;

    SubscribeController(
            SubscribePageService service, SubscribePage page, SubscriptionsProperties properties, JsonMapper json) {
        this.service = service;
        this.page = page;
        this.settings = properties.checkout();
        this.streams = new LiveStreams(
                settings.maxStreams(),
                settings.heartbeatInterval(),
                settings.idleTimeout(),
                settings.streamLifetime(),
                () -> new ApiException(
                        HttpStatus.SERVICE_UNAVAILABLE,
                        "too_many_streams",
                        "Too many open status streams; poll /checkout/subscribe/status instead"));
        this.json = json;
    }

    @GetMapping("/checkout/subscribe")
    Mono<ResponseEntity<String>> page(@RequestParam(name = "subscriber_id", required = false) String subscriberId) {
        Optional<UUID> id = subscriberId(subscriberId);
        if (id.isEmpty()) {
            return Mono.just(html(HttpStatus.BAD_REQUEST, page.badLink()));
        }
        return service.page(id.get())
                .map(view -> html(HttpStatus.OK, page.render(view)))
                .defaultIfEmpty(html(HttpStatus.NOT_FOUND, page.notFound()));
    }

    @GetMapping(path = "/checkout/subscribe/status", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<SubscribeStatus> status(@RequestParam(name = "subscriber_id", required = false) String subscriberId) {
        return found(subscriberId).map(SubscribeStatus::of);
    }

    /**
     * The current status at once, then one {@code status} event per visible change (read every
     * {@code subscriptions.checkout.poll-interval}), a comment line every {@code heartbeat-interval}; the stream ends
     * after a terminal state or after {@code stream-lifetime}. Beyond {@code max-streams} open streams on this
     * instance: 503 with {@code Retry-After}.
     */
    @GetMapping(path = "/checkout/subscribe/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    Flux<ServerSentEvent<SubscribeStatus>> events(
            @RequestParam(name = "subscriber_id", required = false) String subscriberId, ServerWebExchange exchange) {
        return found(subscriberId)
                .flatMapMany(
                        first -> streams.open(exchange, service.watch(first).map(SubscribeStatus::of)));
    }

    /**
     * The wallet's enrolment kit, exactly as {@code GET /public/subscriber/prepare} answers it:
     * {@code ?subscriber_id=&wallet_address=[&periods=1..120]}.
     */
    @GetMapping(path = "/checkout/subscribe/prepare", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Preparation> prepare(@RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> {
                    ListQuery query = new ListQuery(params);
                    String id = params.getFirst("subscriber_id");
                    UUID subscriberId = query.uuid("subscriber_id", id);
                    if (id == null) {
                        query.violations().reject("subscriber_id", "subscriber_id is required");
                    }
                    String wallet = params.getFirst("wallet_address");
                    if (wallet == null) {
                        query.violations().reject("wallet_address", "wallet_address is required");
                    } else if (!Addresses.isValid(wallet.toLowerCase(Locale.ROOT))) {
                        query.violations().reject("wallet_address", "wallet_address " + Addresses.RULE);
                    }
                    int periods = query.integer("periods", settings.approvalPeriods(), 1, 120);
                    query.throwIfAny();
                    return new KitQuery(subscriberId, Addresses.checksummed(wallet), periods);
                })
                .flatMap(query -> service.kit(query.subscriberId(), query.wallet(), query.periods()))
                .map(Preparation::of);
    }

    private record KitQuery(UUID subscriberId, String wallet, int periods) {}

    /** The page script's enrolment: 201 with the page's new status; refusals as problems. */
    @PostMapping(
            path = "/checkout/subscribe/enrol",
            consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    Mono<SubscribeStatus> enrol(@RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> PageEnrolment.parse(json, body))
                .flatMap(service::enrol)
                .map(SubscribeStatus::of);
    }

    /**
     * The by-hand form's enrolment (no JavaScript): 303 back to the page, which then shows the subscription waiting
     * for the chain; a refusal shows the page again with the reason beside the form, under the refusal's status.
     */
    @PostMapping(path = "/checkout/subscribe/enrol", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    Mono<ResponseEntity<String>> enrolByForm(ServerWebExchange exchange) {
        return DataBufferUtils.join(exchange.getRequest().getBody(), MAX_FORM_BYTES)
                .map(buffer -> {
                    String text = buffer.toString(StandardCharsets.UTF_8);
                    DataBufferUtils.release(buffer);
                    return text;
                })
                .defaultIfEmpty("")
                .flatMap(this::enrolFromForm);
    }

    private Mono<ResponseEntity<String>> enrolFromForm(String body) {
        MultiValueMap<String, String> form = formFields(body);
        Optional<UUID> id = subscriberId(form.getFirst("subscriber_id"));
        if (id.isEmpty()) {
            return Mono.just(html(HttpStatus.BAD_REQUEST, page.badLink()));
        }
        return Mono.<PageEnrolment>fromSupplier(() -> PageEnrolment.parse(json, form))
                .flatMap(service::enrol)
                .map(view -> ResponseEntity.status(HttpStatus.SEE_OTHER)
                        .header(HttpHeaders.LOCATION, "../subscribe?subscriber_id=" + view.subscriberId())
                        .<String>build())
                .onErrorResume(
                        ApiException.class,
                        refused -> service.page(id.get())
                                .map(view -> html(refused.status(), page.render(view, refusal(refused))))
                                .defaultIfEmpty(html(HttpStatus.NOT_FOUND, page.notFound())));
    }

    /**
     * The fields of an {@code application/x-www-form-urlencoded} body (read as text: the internal-token check has read
     * the request's body already, so the exchange's own form data would be empty).
     */
    static MultiValueMap<String, String> formFields(String body) {
        MultiValueMap<String, String> fields = new LinkedMultiValueMap<>();
        if (body == null || body.isEmpty()) {
            return fields;
        }
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            try {
                String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
                String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
                fields.add(name, value);
            } catch (IllegalArgumentException malformed) {
                throw ApiException.badRequest("invalid_request", "The form body is not valid URL encoding");
            }
        }
        return fields;
    }

    /** The refusal's message, or each rejected field's. */
    private static String refusal(ApiException refused) {
        if (refused.errors().isEmpty()) {
            return refused.getMessage();
        }
        return String.join(
                "; ", refused.errors().stream().map(FieldError::message).toList());
    }

    private Mono<SubscribeView> found(String subscriberId) {
        if (subscriberId == null) {
            return Mono.error(
                    ApiException.invalidField("validation_failed", "subscriber_id", "subscriber_id is required"));
        }
        return subscriberId(subscriberId)
                .map(service::status)
                .orElseGet(() -> Mono.error(ApiException.invalidField(
                        "validation_failed", "subscriber_id", "subscriber_id must be a UUID")))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Subscriber not found")));
    }

    /** The id when the text is a UUID; anything else names no subscriber. */
    private static Optional<UUID> subscriberId(String text) {
        if (text == null || text.length() != 36) {
            return Optional.empty();
        }
        try {
            return Optional.of(UUID.fromString(text));
        } catch (IllegalArgumentException malformed) {
            return Optional.empty();
        }
    }

    private static ResponseEntity<String> html(HttpStatusCode status, String body) {
        return ResponseEntity.status(status).contentType(HTML).body(body);
    }
}
