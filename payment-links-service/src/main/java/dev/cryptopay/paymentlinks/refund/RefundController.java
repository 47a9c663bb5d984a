package dev.cryptopay.paymentlinks.refund;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.paymentlink.RefundResponse;
import dev.cryptopay.service.idempotency.IdempotencyStore;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.Page;
import dev.cryptopay.service.response.PathIds;
import java.time.Clock;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The merchant's refund routes: {@code POST /payment_links/{id}/refunds} asks for a refund (201 with it, to be paid
 * by the merchant's wallet from the deposit address), {@code GET /payment_links/{id}/refunds} lists them, newest first.
 * The POST takes an optional {@code Idempotency-Key}: the same key and request answer the first response byte for
 * byte.
 */
@RestController
class RefundController {

    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;

    private final RefundService service;
    private final IdempotencyStore idempotency;
    private final JsonMapper json;
    private final Clock clock;

    RefundController(RefundService service, IdempotencyStore idempotency, JsonMapper json, Clock clock) {
        this.service = service;
        this.idempotency = idempotency;
        this.json = json;
        this.clock = clock;
    }

    @PostMapping(path = "/payment_links/{id}/refunds", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<String>> create(
            MerchantIdentity merchant,
            @PathVariable String id,
            @RequestBody(required = false) String body,
            @RequestHeader(name = IdempotencyStore.HEADER, required = false) String idempotencyKey) {
        return Mono.fromSupplier(() -> {
                    UUID linkId = PathIds.uuid(id, "payment link");
                    IdempotencyStore.validate(idempotencyKey);
                    return new Create(linkId, RefundRequest.parse(json, body));
                })
                .flatMap(create -> idempotency.created(
                        merchant,
                        idempotencyKey,
                        // The key answers one request: the same key for another link is a 409, not its answer.
                        create.linkId() + "\n" + body,
                        clock.instant(),
                        () -> service.create(merchant, create.linkId(), create.request())
                                .map(refund -> json.writeValueAsString(
                                        Envelope.of("Refund initiated successfully", RefundResponse.of(refund))))));
    }

    @GetMapping("/payment_links/{id}/refunds")
    Mono<Envelope<Page<RefundResponse>>> list(
            MerchantIdentity merchant, @PathVariable String id, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> {
                    UUID linkId = PathIds.uuid(id, "payment link");
                    ListQuery query = new ListQuery(params);
                    PageRequest page = query.page("limit", DEFAULT_LIMIT, MAX_LIMIT);
                    query.throwIfAny();
                    return new Read(linkId, page);
                })
                .flatMap(read -> service.list(merchant, read.linkId(), read.page())
                        .map(listed -> Envelope.of(
                                "Refunds retrieved successfully",
                                Page.of(
                                        listed.refunds().stream()
                                                .map(RefundResponse::of)
                                                .toList(),
                                        read.page(),
                                        listed.total()))));
    }

    private record Create(UUID linkId, RefundRequest request) {}

    private record Read(UUID linkId, PageRequest page) {}
}
