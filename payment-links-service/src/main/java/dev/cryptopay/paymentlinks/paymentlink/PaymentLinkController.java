package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.service.idempotency.IdempotencyStore;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.Page;
import dev.cryptopay.service.response.PathIds;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** The merchant routes of payment links; every one answers {@code {message, data}} or the problem body. */
@RestController
class PaymentLinkController {

    private final PaymentLinkService service;
    private final IdempotencyStore idempotency;
    private final PaymentLinksProperties properties;
    private final JsonMapper json;
    private final Clock clock;

    PaymentLinkController(
            PaymentLinkService service,
            IdempotencyStore idempotency,
            PaymentLinksProperties properties,
            JsonMapper json,
            Clock clock) {
        this.service = service;
        this.idempotency = idempotency;
        this.properties = properties;
        this.json = json;
        this.clock = clock;
    }

    /**
     * The body is taken as text so validation can name each bad field and idempotency can hash the exact bytes; the
     * answer is kept as text so a retry with the same Idempotency-Key gets the very same bytes.
     */
    @PostMapping(path = "/payment_links", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<String>> create(
            MerchantIdentity merchant,
            @RequestBody(required = false) String body,
            @RequestHeader(name = IdempotencyStore.HEADER, required = false) String idempotencyKey) {
        String key = IdempotencyStore.validate(idempotencyKey);
        Instant now = clock.instant();
        return service.currencyCodes()
                .map(currencies -> PaymentLinkRequestParser.parse(json, body, currencies, now))
                .flatMap(request -> service.validate(merchant, request))
                .flatMap(request -> idempotency.createdSelfContained(
                        merchant,
                        key,
                        body,
                        now,
                        () -> service.create(merchant, request)
                                .map(view -> json.writeValueAsString(
                                        Envelope.of("Payment link created successfully", response(view))))));
    }

    /** The sort a list was answered with, echoed as {@code filters}. */
    record SortFilters(String sortBy, String sortOrder) {}

    @GetMapping("/payment_links")
    Mono<Envelope<Page<PaymentLinkResponse>>> list(
            MerchantIdentity merchant, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> PaymentLinkQuery.parse(params))
                .flatMap(query -> service.list(merchant, query)
                        .map(listed -> Envelope.of(
                                "Payment links retrieved successfully",
                                Page.of(
                                                listed.links().stream()
                                                        .map(this::response)
                                                        .toList(),
                                                query.page(),
                                                listed.total())
                                        .withFilters(new SortFilters(query.sortBy(), query.sortOrder())))));
    }

    @GetMapping("/payment_links/{id}")
    Mono<Envelope<PaymentLinkResponse>> get(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> linkId(id))
                .flatMap(linkId -> service.get(merchant, linkId))
                .map(view -> Envelope.of("Payment link retrieved successfully", response(view)));
    }

    @DeleteMapping("/payment_links/{id}")
    Mono<Envelope<PaymentLinkResponse>> delete(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> linkId(id))
                .flatMap(linkId -> service.cancel(merchant, linkId))
                .map(view -> Envelope.of("Payment link deleted successfully", response(view)));
    }

    private PaymentLinkResponse response(PaymentLinkView view) {
        return PaymentLinkResponse.of(view, properties.paymentUrl(view.link().id()), json);
    }

    private static UUID linkId(String text) {
        return PathIds.uuid(text, "payment link");
    }
}
