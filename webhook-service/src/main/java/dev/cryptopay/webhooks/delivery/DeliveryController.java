package dev.cryptopay.webhooks.delivery;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.FieldError;
import dev.cryptopay.service.json.JsonFields;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.Pagination;
import dev.cryptopay.service.response.PathIds;
import dev.cryptopay.webhooks.endpoint.EndpointService;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Delivery history for merchants: list an endpoint's deliveries, read one with every attempt, retry one now, and
 * recover every failed delivery of an endpoint since a time. Retry and recover start a fresh schedule.
 */
@RestController
class DeliveryController {

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ISO_INSTANT.withZone(ZoneOffset.UTC);

    private final DeliveryRepository deliveries;
    private final EndpointService endpoints;
    private final JsonMapper json;
    private final Clock clock;

    DeliveryController(DeliveryRepository deliveries, EndpointService endpoints, JsonMapper json, Clock clock) {
        this.deliveries = deliveries;
        this.endpoints = endpoints;
        this.json = json;
        this.clock = clock;
    }

    @GetMapping("/webhook-endpoints/{id}/deliveries")
    Mono<Map<String, Object>> list(
            MerchantIdentity merchant, @PathVariable String id, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> new Page(params)).flatMap(page -> {
            UUID endpointId = PathIds.uuid(id, "webhook endpoint");
            return endpoints
                    .get(merchant, endpointId)
                    .then(deliveries.count(merchant, endpointId, page.status, page.eventType))
                    .zipWith(deliveries
                            .page(
                                    merchant,
                                    endpointId,
                                    page.status,
                                    page.eventType,
                                    page.limit,
                                    (long) (page.page - 1) * page.limit)
                            .map(DeliveryController::render)
                            .collectList())
                    .map(result -> {
                        Map<String, Object> data = new LinkedHashMap<>();
                        data.put("data", result.getT2());
                        data.put("pagination", Pagination.of(page.page, page.limit, result.getT1()));
                        return Envelope.of("Deliveries retrieved", data);
                    });
        });
    }

    @GetMapping("/webhook-deliveries/{id}")
    Mono<Map<String, Object>> get(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "delivery"))
                .flatMap(deliveryId -> deliveries.find(merchant, deliveryId))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Delivery not found")))
                .flatMap(delivery -> deliveries
                        .attempts(delivery.id())
                        .map(DeliveryController::render)
                        .collectList()
                        .map(attempts -> {
                            Map<String, Object> out = render(delivery);
                            out.put("attempt_log", attempts);
                            return Envelope.of("Delivery retrieved", out);
                        }));
    }

    @PostMapping("/webhook-deliveries/{id}/retry")
    Mono<ResponseEntity<Map<String, Object>>> retry(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "delivery"))
                .flatMap(deliveryId -> deliveries.find(merchant, deliveryId))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Delivery not found")))
                .flatMap(delivery -> deliveries.saveRestarted(delivery.restart(clock.instant())))
                .then(Mono.fromSupplier(() -> ResponseEntity.status(HttpStatus.ACCEPTED)
                        .body(Envelope.of("Delivery scheduled for an immediate attempt", Map.of("id", id)))));
    }

    @PostMapping("/webhook-endpoints/{id}/recover")
    Mono<ResponseEntity<Map<String, Object>>> recover(
            MerchantIdentity merchant, @PathVariable String id, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> {
                    JsonNode root = JsonFields.parseObject(json, body);
                    JsonFields fields = new JsonFields();
                    fields.rejectUnknown(root, "", List.of("since"));
                    Instant since = fields.timestamp(root, "since", "since");
                    if (since == null && fields.errors().isEmpty()) {
                        fields.reject("since", "since is required");
                    }
                    fields.throwIfAny();
                    return since;
                })
                .flatMap(since -> {
                    UUID endpointId = PathIds.uuid(id, "webhook endpoint");
                    return endpoints
                            .get(merchant, endpointId)
                            .then(deliveries.recoverFailed(merchant, endpointId, since, clock.instant()));
                })
                .map(count -> ResponseEntity.status(HttpStatus.ACCEPTED)
                        .body(Envelope.of("Failed deliveries scheduled again", Map.of("recovered", count))));
    }

    static Map<String, Object> render(Delivery delivery) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", delivery.id().toString());
        out.put("event_id", delivery.eventId().toString());
        out.put("endpoint_id", delivery.endpointId().toString());
        out.put("event_type", delivery.eventType());
        out.put("status", delivery.status().wireName());
        out.put("attempts", delivery.attempts());
        putTime(out, "next_attempt_at", delivery.status() == DeliveryStatus.PENDING ? delivery.nextAttemptAt() : null);
        putTime(out, "last_attempt_at", delivery.lastAttemptAt());
        if (delivery.lastStatusCode() != null) {
            out.put("last_status_code", delivery.lastStatusCode());
        }
        if (delivery.lastError() != null) {
            out.put("last_error", delivery.lastError());
        }
        putTime(out, "succeeded_at", delivery.succeededAt());
        putTime(out, "created_at", delivery.createdAt());
        return out;
    }

    static Map<String, Object> render(DeliveryRepository.Attempt attempt) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("attempt", attempt.number());
        putTime(out, "started_at", attempt.startedAt());
        out.put("latency_ms", attempt.latencyMillis());
        if (attempt.statusCode() != null) {
            out.put("status_code", attempt.statusCode());
        }
        out.put("outcome", attempt.outcome());
        if (attempt.error() != null) {
            out.put("error", attempt.error());
        }
        if (attempt.responseExcerpt() != null) {
            out.put("response_excerpt", attempt.responseExcerpt());
        }
        return out;
    }

    private static void putTime(Map<String, Object> out, String name, Instant value) {
        if (value != null) {
            out.put(name, TIMESTAMP.format(value));
        }
    }

    /** Paging and filters of the delivery list; bad values are a 400 naming each. */
    private static final class Page {
        final int page;
        final int limit;
        final DeliveryStatus status;
        final String eventType;

        Page(MultiValueMap<String, String> params) {
            List<FieldError> errors = new ArrayList<>();
            page = integer(params.getFirst("page"), 1, "page", 1, Integer.MAX_VALUE, errors);
            limit = integer(params.getFirst("limit"), 20, "limit", 1, 100, errors);
            status = status(params.getFirst("status"), errors);
            eventType = params.getFirst("event_type");
            if (!errors.isEmpty()) {
                throw ApiException.validation(errors);
            }
        }

        private static DeliveryStatus status(String text, List<FieldError> errors) {
            if (text == null) {
                return null;
            }
            try {
                return DeliveryStatus.fromWireName(text);
            } catch (IllegalArgumentException unknown) {
                errors.add(new FieldError("status", "status must be one of pending, succeeded, failed"));
                return null;
            }
        }

        private static int integer(String text, int fallback, String name, int min, int max, List<FieldError> errors) {
            if (text == null) {
                return fallback;
            }
            try {
                int value = Integer.parseInt(text);
                if (value >= min && value <= max) {
                    return value;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            errors.add(new FieldError(name, name + " must be an integer between " + min + " and " + max));
            return fallback;
        }
    }
}
