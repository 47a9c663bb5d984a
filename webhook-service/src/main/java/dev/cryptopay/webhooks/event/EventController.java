package dev.cryptopay.webhooks.event;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.request.ListQuery;
import dev.cryptopay.service.request.PageRequest;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.Page;
import dev.cryptopay.service.response.PathIds;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The merchant's events, as Stripe and Svix list them: newest first, paged like the delivery list, filtered by the
 * object an event is about ({@code object_id}: a payment link's or a subscription link's id), its type and when it
 * happened; each with its deliveries, so one call answers "what did this link send, and did it arrive".
 */
@RestController
class EventController {

    private final EventHistoryRepository events;
    private final JsonMapper json;

    EventController(EventHistoryRepository events, JsonMapper json) {
        this.events = events;
        this.json = json;
    }

    /** The filters of the event list. */
    private record Filters(PageRequest page, EventHistoryRepository.Filter filter) {

        static Filters parse(MultiValueMap<String, String> params) {
            ListQuery query = new ListQuery(params);
            PageRequest page = query.page("limit", 20, 100);
            UUID objectId = query.uuid("object_id");
            String type = query.oneOf("type", EventType.wireNames(), null);
            ListQuery.DateRange created = query.dateRange("created_from", "created_to");
            query.throwIfAny();
            return new Filters(page, new EventHistoryRepository.Filter(objectId, type, created.from(), created.to()));
        }
    }

    @GetMapping("/events")
    Mono<Envelope<Page<EventResponse>>> list(
            MerchantIdentity merchant, @RequestParam MultiValueMap<String, String> params) {
        return Mono.fromSupplier(() -> Filters.parse(params))
                .flatMap(filters -> events.count(merchant, filters.filter())
                        .zipWith(events.page(
                                        merchant,
                                        filters.filter(),
                                        filters.page().size(),
                                        filters.page().offset())
                                .collectList())
                        .flatMap(result -> withDeliveries(merchant, result.getT2())
                                .map(items -> Envelope.of(
                                        "Events retrieved", Page.of(items, filters.page(), result.getT1())))));
    }

    @GetMapping("/events/{id}")
    Mono<Envelope<EventResponse>> get(MerchantIdentity merchant, @PathVariable String id) {
        return Mono.fromSupplier(() -> PathIds.uuid(id, "event"))
                .flatMap(eventId -> events.find(merchant, eventId))
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Event not found")))
                .flatMap(event -> withDeliveries(merchant, List.of(event)))
                .map(items -> Envelope.of("Event retrieved", items.get(0)));
    }

    /** The events with their deliveries, read for all of them in one statement. */
    private Mono<List<EventResponse>> withDeliveries(
            MerchantIdentity merchant, List<EventHistoryRepository.StoredEvent> page) {
        return events.deliveriesOf(
                        merchant,
                        page.stream()
                                .map(EventHistoryRepository.StoredEvent::id)
                                .toList())
                .collect(Collectors.groupingBy(EventHistoryRepository.EventDelivery::eventId))
                .map(byEvent ->
                        page.stream().map(event -> response(event, byEvent)).toList());
    }

    private EventResponse response(
            EventHistoryRepository.StoredEvent event, Map<UUID, List<EventHistoryRepository.EventDelivery>> byEvent) {
        JsonNode body = json.readTree(event.body());
        return new EventResponse(
                event.id().toString(),
                event.type(),
                event.createdAt(),
                event.objectId() == null ? null : event.objectId().toString(),
                body.get("data"),
                body.path("livemode").asBoolean(),
                byEvent.getOrDefault(event.id(), List.of()).stream()
                        .map(EventResponse.DeliverySummary::of)
                        .toList());
    }
}
