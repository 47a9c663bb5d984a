package dev.cryptopay.paymentlinks.transaction;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkResponse;
import dev.cryptopay.service.idempotency.IdempotencyStore;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.PathIds;
import java.time.Clock;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The merchant's answer to a late payment: {@code POST /payment_links/{id}/resolve} accepts a late, confirmed
 * transfer ({@code tx_hash}, and {@code log_index} when the transaction holds several to the link) that covers the
 * amount as a use of the link. 200 with the link as a single-link read shows it, the same
 * on every repeat. Optional {@code Idempotency-Key}: the same key and request answer the first response byte for byte.
 */
@RestController
class LatePaymentController {

    private final LatePaymentService service;
    private final IdempotencyStore idempotency;
    private final PaymentLinksProperties properties;
    private final JsonMapper json;
    private final Clock clock;

    LatePaymentController(
            LatePaymentService service,
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

    @PostMapping(path = "/payment_links/{id}/resolve", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<String>> resolve(
            MerchantIdentity merchant,
            @PathVariable String id,
            @RequestBody(required = false) String body,
            @RequestHeader(name = IdempotencyStore.HEADER, required = false) String idempotencyKey) {
        return Mono.fromSupplier(() -> {
                    UUID linkId = PathIds.uuid(id, "payment link");
                    IdempotencyStore.validate(idempotencyKey);
                    return new Resolve(linkId, ResolveRequest.parse(json, body));
                })
                .flatMap(resolve -> idempotency.respond(
                        merchant,
                        idempotencyKey,
                        // The key answers one request: the same key for another link is a 409, not its answer.
                        resolve.linkId() + "\n" + body,
                        clock.instant(),
                        HttpStatus.OK,
                        () -> service.resolve(merchant, resolve.linkId(), resolve.request())
                                .map(view -> json.writeValueAsString(Envelope.of(
                                        "Late payment resolved successfully",
                                        PaymentLinkResponse.of(
                                                view,
                                                properties.paymentUrl(
                                                        view.link().id()),
                                                json))))));
    }

    private record Resolve(UUID linkId, ResolveRequest request) {}
}
