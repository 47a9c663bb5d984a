package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.paymentlinks.idempotency.IdempotencyStore;
import dev.cryptopay.service.response.PathIds;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
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

/** The merchant routes of payment links; every one answers {@code {message, data}} or the problem body. */
@RestController
class PaymentLinkController {

    private final PaymentLinkService service;

    PaymentLinkController(PaymentLinkService service) {
        this.service = service;
    }

    /** The body is taken as text so validation can name each bad field and idempotency can hash the exact bytes. */
    @PostMapping(path = "/payment_links", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<String>> create(
            MerchantIdentity merchant,
            @RequestBody(required = false) String body,
            @RequestHeader(name = IdempotencyStore.HEADER, required = false) String idempotencyKey) {
        return service.create(merchant, body, IdempotencyStore.validate(idempotencyKey))
                .map(response -> ResponseEntity.status(response.status())
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(response.body()));
    }

    @GetMapping("/payment_links")
    Mono<Map<String, Object>> list(MerchantIdentity merchant, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> PaymentLinkQuery.parse(params)).flatMap(query -> service.list(merchant, query));
    }

    @GetMapping("/payment_links/{id}")
    Mono<Map<String, Object>> get(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> linkId(id)).flatMap(linkId -> service.get(merchant, linkId));
    }

    @DeleteMapping("/payment_links/{id}")
    Mono<ResponseEntity<Map<String, Object>>> delete(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> linkId(id))
                .flatMap(linkId -> service.cancel(merchant, linkId))
                .map(body -> ResponseEntity.status(HttpStatus.OK).body(body));
    }

    private static UUID linkId(String text) {
        return PathIds.uuid(text, "payment link");
    }
}
