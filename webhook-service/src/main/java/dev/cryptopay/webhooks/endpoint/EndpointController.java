package dev.cryptopay.webhooks.endpoint;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.idempotency.IdempotencyStore;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.PathIds;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Merchant routes for endpoints. Responses use the {@code {message, data}} envelope; the secret appears only in
 * the create and rotate responses. A create with an {@code Idempotency-Key} runs once: a retry gets the first
 * answer (secret included), the same key with another body a 409.
 */
@RestController
class EndpointController {

    private final EndpointService service;
    private final IdempotencyStore idempotency;
    private final JsonMapper json;
    private final Clock clock;

    EndpointController(EndpointService service, IdempotencyStore idempotency, JsonMapper json, Clock clock) {
        this.service = service;
        this.idempotency = idempotency;
        this.json = json;
        this.clock = clock;
    }

    /**
     * An endpoint as merchants read it; {@code secret} only right after create or rotate. {@code failing_since} while
     * its attempts keep failing; {@code disabled_at} and {@code disabled_reason} once it was disabled for that.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record EndpointResponse(
            String id,
            String url,
            List<String> events,
            String description,
            boolean enabled,
            boolean livemode,
            String secret,
            Instant createdAt,
            Instant updatedAt,
            Instant failingSince,
            Instant disabledAt,
            String disabledReason) {

        static EndpointResponse of(WebhookEndpoint endpoint, String secret) {
            return new EndpointResponse(
                    endpoint.id().toString(),
                    endpoint.url(),
                    endpoint.eventTypes(),
                    endpoint.description(),
                    endpoint.enabled(),
                    endpoint.mode() == Mode.LIVE,
                    secret,
                    endpoint.createdAt(),
                    endpoint.updatedAt(),
                    endpoint.failingSince(),
                    endpoint.disabledAt(),
                    endpoint.disabledReason());
        }
    }

    @PostMapping(path = "/webhook-endpoints", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<String>> create(
            MerchantIdentity merchant,
            @RequestBody(required = false) String body,
            @RequestHeader(name = IdempotencyStore.HEADER, required = false) String idempotencyKey) {
        String key = IdempotencyStore.validate(idempotencyKey);
        return idempotency.created(
                merchant,
                key,
                body,
                clock.instant(),
                () -> service.create(merchant, body)
                        .map(created -> json.writeValueAsString(Envelope.of(
                                "Webhook endpoint created",
                                EndpointResponse.of(created.endpoint(), created.secret())))));
    }

    @GetMapping("/webhook-endpoints")
    Mono<Envelope<List<EndpointResponse>>> list(MerchantIdentity merchant) {
        return service.list(merchant)
                .map(endpoint -> EndpointResponse.of(endpoint, null))
                .collectList()
                .map(items -> Envelope.of("Webhook endpoints retrieved", items));
    }

    @GetMapping("/webhook-endpoints/{id}")
    Mono<Envelope<EndpointResponse>> get(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> endpointId(id))
                .flatMap(endpointId -> service.get(merchant, endpointId))
                .map(endpoint -> Envelope.of("Webhook endpoint retrieved", EndpointResponse.of(endpoint, null)));
    }

    @DeleteMapping("/webhook-endpoints/{id}")
    Mono<Envelope<EndpointResponse>> delete(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> endpointId(id))
                .flatMap(endpointId -> service.delete(merchant, endpointId))
                .map(endpoint -> Envelope.of("Webhook endpoint deleted", EndpointResponse.of(endpoint, null)));
    }

    /** Enables a disabled endpoint: its held deliveries are attempted now. */
    @PostMapping("/webhook-endpoints/{id}/enable")
    Mono<Envelope<EndpointResponse>> enable(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> endpointId(id))
                .flatMap(endpointId -> service.enable(merchant, endpointId))
                .map(endpoint -> Envelope.of("Webhook endpoint enabled", EndpointResponse.of(endpoint, null)));
    }

    @PostMapping("/webhook-endpoints/{id}/rotate-secret")
    Mono<Envelope<EndpointResponse>> rotate(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> endpointId(id))
                .flatMap(endpointId -> service.rotateSecret(merchant, endpointId))
                .map(rotated -> Envelope.of(
                        "Webhook endpoint secret rotated", EndpointResponse.of(rotated.endpoint(), rotated.secret())));
    }

    private static UUID endpointId(String text) {
        return PathIds.uuid(text, "webhook endpoint");
    }
}
