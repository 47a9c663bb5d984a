package dev.cryptopay.webhooks.intake;

import dev.cryptopay.webhooks.delivery.Delivery;
import dev.cryptopay.webhooks.delivery.DeliveryRepository;
import dev.cryptopay.webhooks.delivery.RetrySchedule;
import dev.cryptopay.webhooks.endpoint.EndpointRepository;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Takes one Kafka record: stores the event once (its id is the key, so a redelivered record changes nothing) and
 * creates a delivery for each enabled endpoint of that merchant and mode subscribed to its type, all in one
 * transaction. A record that is not a valid event is parked for operators instead of being retried forever.
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

    /** What became of a record. */
    public enum Outcome {
        STORED,
        DUPLICATE,
        PARKED
    }

    public Mono<Outcome> accept(ConsumerRecord<String, String> record) {
        Instant now = clock.instant();
        Event event;
        try {
            event = Event.fromEnvelope(json, record.value());
        } catch (IllegalArgumentException invalid) {
            return parkedRecords.park(record, invalid.getMessage(), now).thenReturn(Outcome.PARKED);
        }
        newestEventTime.set(event.createdAt());
        String source = record.topic() + "/" + record.partition() + "/" + record.offset();
        Mono<Outcome> store = events.insertOnce(event, source, now)
                .flatMap(inserted -> !inserted
                        ? Mono.just(Outcome.DUPLICATE)
                        : endpoints
                                .subscribers(
                                        event.merchant().merchantId(),
                                        event.merchant().mode(),
                                        event.type())
                                .collectList()
                                .flatMapIterable(list -> list)
                                .concatMap(endpoint -> deliveries.insert(
                                        Delivery.schedule(event.id(), endpoint.id(), event.type(), schedule, now),
                                        event.merchant()))
                                .then(Mono.just(Outcome.STORED)));
        return tx.transactional(store);
    }

    /** Creation time of the newest event read, for the consumer-freshness metric. */
    public Instant newestEventTime() {
        return newestEventTime.get();
    }
}
