package dev.cryptopay.paymentlinks.receiving;

import dev.cryptopay.auth.bip32.ExtendedPublicKey;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.response.Envelope;
import java.time.Instant;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code PUT /payment_links/receiving_key} registers or replaces the merchant's extended public key for the API key's
 * mode (201 the first time, 200 after); {@code GET} reads it. Links created later are paid to its children.
 */
@RestController
class ReceivingKeyController {

    private static final String PATH = "/payment_links/receiving_key";

    private final ReceivingKeyService service;
    private final JsonMapper json;

    ReceivingKeyController(ReceivingKeyService service, JsonMapper json) {
        this.service = service;
        this.json = json;
    }

    /**
     * What a merchant sees of a key: enough to check it is the wallet they meant ({@code first_address} is the
     * address of child 0, which a wallet shows as its first account when the key is its receiving chain).
     */
    record ReceivingKeyResponse(
            String extendedPublicKey,
            String keyNetwork,
            int depth,
            String fingerprint,
            String firstAddress,
            long addressesIssued,
            Instant createdAt,
            Instant updatedAt) {

        static ReceivingKeyResponse of(ReceivingKey key) {
            ExtendedPublicKey extended = key.key();
            return new ReceivingKeyResponse(
                    extended.serialize(),
                    extended.network().wireName(),
                    extended.depth(),
                    String.format("%08x", extended.fingerprint()),
                    extended.child(0).map(EthereumAddress::of).orElse(null),
                    key.nextIndex(),
                    key.createdAt(),
                    key.updatedAt());
        }
    }

    @PutMapping(PATH)
    Mono<ResponseEntity<Envelope<ReceivingKeyResponse>>> register(
            MerchantIdentity merchant, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> ReceivingKeyRequest.parse(json, body))
                .flatMap(request -> service.register(merchant, request.extendedPublicKey()))
                .map(registered -> ResponseEntity.status(registered.created() ? HttpStatus.CREATED : HttpStatus.OK)
                        .body(Envelope.of(
                                registered.created() ? "Receiving key registered" : "Receiving key updated",
                                ReceivingKeyResponse.of(registered.key()))));
    }

    @GetMapping(PATH)
    Mono<Envelope<ReceivingKeyResponse>> get(MerchantIdentity merchant) {
        return service.current(merchant)
                .map(key -> Envelope.of("Receiving key retrieved", ReceivingKeyResponse.of(key)));
    }
}
