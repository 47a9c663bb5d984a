package dev.cryptopay.webhooks.delivery;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import dev.cryptopay.service.request.TimestampField;
import dev.cryptopay.service.request.Violations;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.Page;
import dev.cryptopay.service.response.PathIds;
import dev.cryptopay.webhooks.config.WebhookProperties;
import dev.cryptopay.webhooks.endpoint.EndpointService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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

    private static final TimestampField SINCE = Field.timestamp("since").required();

    private final DeliveryRepository deliveries;
    private final EndpointService endpoints;
    private final JsonMapper json;
    private final Clock clock;
    private final WebhookProperties.Delivery settings;

    DeliveryController(
            DeliveryRepository deliveries,
            EndpointService endpoints,
            JsonMapper json,
            Clock clock,
            WebhookProperties properties) {
        this.settings = properties.delivery();
        this.deliveries = deliveries;
        this.endpoints = endpoints;
        this.json = json;
        this.clock = clock;
    }

    /** The filters of the delivery list. */
    private record Filters(PageRequest page, DeliveryStatus status, String eventType) {

        static Filters parse(MultiValueMap<String, String> params) {
            ListQuery query = new ListQuery(params);
            PageRequest page = query.page("limit", 20, 100);
            String status = query.oneOf("status", DeliveryStatus.wireNames(), null);
            query.throwIfAny();
            return new Filters(
                    page, status == null ? null : DeliveryStatus.fromWireName(status), params.getFirst("event_type"));
        }
    }

    @GetMapping("/webhook-endpoints/{id}/deliveries")
    Mono<Envelope<Page<DeliveryResponse>>> list(
            MerchantIdentity merchant, @PathVariable String id, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> Filters.parse(params)).flatMap(filters -> {
            UUID endpointId = PathIds.uuid(id, "webhook endpoint");
            // The ownership check finishes before the two queries start: a 404 must not cancel a query in
            // flight, which can leave its pooled connection stuck behind unread rows.
            return endpoints
                    .get(merchant, endpointId)
                    .then(Mono.zip(
                            deliveries.count(merchant, endpointId, filters.status(), filters.eventType()),
                            deliveries
                                    .page(
                                            merchant,
                                            endpointId,
                                            filters.status(),
                                            filters.eventType(),
                                            filters.page().size(),
                                            filters.page().offset())
                                    .map(DeliveryResponse::of)
                                    .collectList()))
                    .map(result -> Envelope.of(
                            "Deliveries retrieved", Page.of(result.getT2(), filters.page(), result.getT1())));
        });
    }

    @GetMapping("/webhook-deliveries/{id}")
    Mono<Envelope<DeliveryResponse>> get(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "delivery"))
                .flatMap(deliveryId -> deliveries.find(merchant, deliveryId))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Delivery not found")))
                .flatMap(delivery -> deliveries
                        .attempts(delivery.id())
                        .map(DeliveryResponse.AttemptResponse::of)
                        .collectList()
                        .map(attempts -> Envelope.of("Delivery retrieved", DeliveryResponse.of(delivery, attempts))));
    }

    record Scheduled(String id) {}

    @PostMapping("/webhook-deliveries/{id}/retry")
    Mono<ResponseEntity<Envelope<Scheduled>>> retry(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "delivery"))
                .flatMap(deliveryId -> deliveries.find(merchant, deliveryId))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Delivery not found")))
                .flatMap(delivery -> deliveries.saveRestarted(
                        delivery.restart(clock.instant()).state()))
                .then(Mono.fromSupplier(() -> ResponseEntity.status(HttpStatus.ACCEPTED)
                        .body(Envelope.of("Delivery scheduled for an immediate attempt", new Scheduled(id)))));
    }

    /** How far back a recover may reach. */
    static final Duration RECOVER_WINDOW = Duration.ofDays(30);

    /** @param hasMore failed deliveries since that time remain: call again */
    record Recovered(long recovered, boolean hasMore) {}

    @PostMapping("/webhook-endpoints/{id}/recover")
    Mono<ResponseEntity<Envelope<Recovered>>> recover(
            MerchantIdentity merchant, @PathVariable String id, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> {
                    JsonNode root = JsonBody.object(json, body);
                    Violations violations = new Violations();
                    violations.rejectUnknown(root, "", Field.names(SINCE));
                    Instant since = SINCE.read(root, violations);
                    if (since != null && since.isBefore(clock.instant().minus(RECOVER_WINDOW))) {
                        violations.reject("since", "since must be within the last 30 days");
                    }
                    violations.throwIfAny();
                    return since;
                })
                .flatMap(since -> {
                    UUID endpointId = PathIds.uuid(id, "webhook endpoint");
                    return endpoints
                            .get(merchant, endpointId)
                            .then(deliveries.recoverFailed(
                                    merchant, endpointId, since, clock.instant(), settings.recoverBatch()))
                            .zipWhen(count -> deliveries.hasFailed(merchant, endpointId, since));
                })
                .map(result -> ResponseEntity.status(HttpStatus.ACCEPTED)
                        .body(Envelope.of(
                                "Failed deliveries scheduled again", new Recovered(result.getT1(), result.getT2()))));
    }
}
