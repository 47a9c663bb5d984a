package dev.cryptopay.webhooks.endpoint;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.PathIds;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * Merchant routes for endpoints. Responses use the {@code {message, data}} envelope; the secret appears only in
 * the create and rotate responses.
 */
@RestController
class EndpointController {

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ISO_INSTANT.withZone(ZoneOffset.UTC);

    private final EndpointService service;

    EndpointController(EndpointService service) {
        this.service = service;
    }

    @PostMapping("/webhook-endpoints")
    Mono<ResponseEntity<Map<String, Object>>> create(
            MerchantIdentity merchant, @RequestBody(required = false) String body) {
        return service.create(merchant, body)
                .map(created -> ResponseEntity.status(HttpStatus.CREATED)
                        .body(Envelope.of("Webhook endpoint created", render(created.endpoint(), created.secret()))));
    }

    @GetMapping("/webhook-endpoints")
    Mono<Map<String, Object>> list(MerchantIdentity merchant) {
        return service.list(merchant)
                .map(endpoint -> render(endpoint, null))
                .collectList()
                .map(items -> Envelope.of("Webhook endpoints retrieved", items));
    }

    @GetMapping("/webhook-endpoints/{id}")
    Mono<Map<String, Object>> get(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> endpointId(id))
                .flatMap(endpointId -> service.get(merchant, endpointId))
                .map(endpoint -> Envelope.of("Webhook endpoint retrieved", render(endpoint, null)));
    }

    @DeleteMapping("/webhook-endpoints/{id}")
    Mono<Map<String, Object>> delete(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> endpointId(id))
                .flatMap(endpointId -> service.delete(merchant, endpointId))
                .map(endpoint -> Envelope.of("Webhook endpoint deleted", render(endpoint, null)));
    }

    @PostMapping("/webhook-endpoints/{id}/rotate-secret")
    Mono<Map<String, Object>> rotate(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> endpointId(id))
                .flatMap(endpointId -> service.rotateSecret(merchant, endpointId))
                .map(rotated ->
                        Envelope.of("Webhook endpoint secret rotated", render(rotated.endpoint(), rotated.secret())));
    }

    static Map<String, Object> render(WebhookEndpoint endpoint, String secret) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", endpoint.id().toString());
        out.put("url", endpoint.url());
        out.put("events", endpoint.eventTypes());
        if (endpoint.description() != null) {
            out.put("description", endpoint.description());
        }
        out.put("enabled", endpoint.enabled());
        out.put("livemode", endpoint.mode() == dev.cryptopay.auth.Mode.LIVE);
        if (secret != null) {
            out.put("secret", secret);
        }
        out.put("created_at", TIMESTAMP.format(endpoint.createdAt()));
        out.put("updated_at", TIMESTAMP.format(endpoint.updatedAt()));
        return out;
    }

    private static UUID endpointId(String text) {
        return PathIds.uuid(text, "webhook endpoint");
    }
}
