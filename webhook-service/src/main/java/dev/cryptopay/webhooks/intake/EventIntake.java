package dev.cryptopay.webhooks.intake;

import dev.cryptopay.service.events.EventType;
import dev.cryptopay.webhooks.delivery.Delivery;
import dev.cryptopay.webhooks.delivery.DeliveryRepository;
import dev.cryptopay.webhooks.delivery.RetrySchedule;
import dev.cryptopay.webhooks.endpoint.EndpointRepository;
import dev.cryptopay.webhooks.endpoint.WebhookEndpoint;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Takes the Kafka records of one poll in one transaction: stores each event once (its id is the key, so a
 * redelivered record or a republished event changes nothing) and creates a delivery for each enabled endpoint of that
 * merchant and mode subscribed to its type. A record that is not a valid event is parked for operators instead of
 * being retried forever. A whole poll costs a handful of statements (events, subscribers, deliveries, each one
 * statement for all records), not a handful per record.
 */
@Component
public class EventIntake {

    private final EventRepository events;
    private final ParkedRecordRepository parkedRecords;
    private final EndpointRepository endpoints;
    private final DeliveryRepository deliveries;
    private final RetrySchedule schedule;
    private final TransactionalOperator tx;
    private final JsonMapper json;
    private final Clock clock;
    private final AtomicReference<Instant> newestEventTime = new AtomicReference<>();

    EventIntake(
            EventRepository events,
            ParkedRecordRepository parkedRecords,
            EndpointRepository endpoints,
            DeliveryRepository deliveries,
            RetrySchedule schedule,
            TransactionalOperator tx,
            JsonMapper json,
            Clock clock) {
        this.events = events;
        this.parkedRecords = parkedRecords;
        this.endpoints = endpoints;
        this.deliveries = deliveries;
        this.schedule = schedule;
        this.tx = tx;
        this.json = json;
        this.clock = clock;
    }

    /**
     * What became of a poll's records.
     *
     * @param stored events stored for the first time
     * @param duplicates valid records whose event was stored before (or earlier in the same poll); records of the
     *     suite's internal event types ({@link EventType#isInternal}) are neither stored nor counted
     * @param parked where each parked record was read from ({@code topic/partition/offset})
     */
    public record Outcome(int stored, int duplicates, List<String> parked) {}

    private record Parked(ConsumerRecord<String, String> record, String reason) {}

    /** An endpoint subscribed to a new event: one delivery to make. */
    private record Subscription(Event event, WebhookEndpoint endpoint) {}

    public Mono<Outcome> accept(List<ConsumerRecord<String, String>> records) {
        return Mono.defer(() -> {
            Instant now = clock.instant();
            Map<UUID, EventRepository.Received> valid = new LinkedHashMap<>();
            List<Parked> parked = new ArrayList<>();
            int internal = 0;
            for (ConsumerRecord<String, String> record : records) {
                try {
                    Event event = Event.fromEnvelope(json, record.value());
                    if (EventType.isInternal(event.type())) {
                        internal++;
                        continue; // for other consumers (notification-service): not a merchant's event
                    }
                    valid.putIfAbsent(event.id(), new EventRepository.Received(event, source(record)));
                    newestEventTime.set(event.createdAt());
                } catch (IllegalArgumentException invalid) {
                    parked.add(new Parked(record, invalid.getMessage()));
                }
            }
            int skipped = internal;
            List<Event> candidates =
                    valid.values().stream().map(EventRepository.Received::event).toList();
            Mono<Outcome> store = Flux.fromIterable(parked)
                    .concatMap(p -> parkedRecords.park(p.record(), p.reason(), now))
                    .then(events.insertNew(valid.values(), now))
                    .flatMap(inserted -> {
                        List<Event> stored = candidates.stream()
                                .filter(event -> inserted.contains(event.id()))
                                .toList();
                        return fanOut(stored, now)
                                .thenReturn(new Outcome(
                                        stored.size(),
                                        records.size() - parked.size() - stored.size() - skipped,
                                        parked.stream()
                                                .map(p -> source(p.record()))
                                                .toList()));
                    });
            return tx.transactional(store);
        });
    }

    /**
     * One delivery per subscribed endpoint of each new event. They become due a microsecond apart in the order the
     * events were read, the last one now, so each endpoint receives them in that order (equal times would be taken
     * in the order of their random ids) and all are due at once.
     */
    private Mono<Void> fanOut(List<Event> stored, Instant now) {
        if (stored.isEmpty()) {
            return Mono.empty();
        }
        Set<UUID> merchants = new HashSet<>();
        stored.forEach(event -> merchants.add(event.merchant().merchantId()));
        return endpoints
                .subscribersOf(merchants)
                .collectMultimap(WebhookEndpoint::merchantId)
                .flatMap(byMerchant -> {
                    List<Subscription> matched = new ArrayList<>();
                    for (Event event : stored) {
                        for (WebhookEndpoint endpoint :
                                byMerchant.getOrDefault(event.merchant().merchantId(), List.of())) {
                            if (endpoint.mode() == event.merchant().mode()
                                    && endpoint.eventTypes().contains(event.type())) {
                                matched.add(new Subscription(event, endpoint));
                            }
                        }
                    }
                    List<DeliveryRepository.NewDelivery> due = new ArrayList<>();
                    for (int i = 0; i < matched.size(); i++) {
                        Event event = matched.get(i).event();
                        Instant at = now.minusNanos(1_000L * (matched.size() - 1 - i));
                        due.add(new DeliveryRepository.NewDelivery(
                                Delivery.schedule(
                                                event.id(),
                                                matched.get(i).endpoint().id(),
                                                event.type(),
                                                schedule,
                                                at)
                                        .state(),
                                event.merchant()));
                    }
                    return deliveries.insertAll(due);
                });
    }

    private static String source(ConsumerRecord<String, String> record) {
        return record.topic() + "/" + record.partition() + "/" + record.offset();
    }

    /** Creation time of the newest event read, for the consumer-freshness metric. */
    public Instant newestEventTime() {
        return newestEventTime.get();
    }
}
