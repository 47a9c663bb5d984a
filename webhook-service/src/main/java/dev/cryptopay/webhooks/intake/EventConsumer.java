package dev.cryptopay.webhooks.intake;

import dev.cryptopay.webhooks.delivery.DeliveryScheduler;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * The Kafka side of intake: a batch listener, so each poll's records (up to {@code max-poll-records}) are taken in one
 * transaction. With ack-mode BATCH the offsets are committed only after {@link EventIntake} committed that
 * transaction; if the database is down the listener throws, the container backs off and hands over the same records
 * again, so nothing is skipped. Invalid records are parked by the intake and do not throw.
 */
@Component
class EventConsumer {

    private static final Logger log = LoggerFactory.getLogger(EventConsumer.class);
    private static final Duration STORE_TIMEOUT = Duration.ofSeconds(30);

    private final EventIntake intake;
    private final DeliveryScheduler scheduler;

    EventConsumer(EventIntake intake, DeliveryScheduler scheduler) {
        this.intake = intake;
        this.scheduler = scheduler;
    }

    @KafkaListener(
            id = "webhook-intake",
            topicPattern = "${webhooks.topic-pattern:.*\\.events}",
            groupId = "${webhooks.consumer-group:webhook-service}",
            batch = "true")
    void onRecords(List<ConsumerRecord<String, String>> records) {
        EventIntake.Outcome outcome = intake.accept(records).block(STORE_TIMEOUT);
        if (outcome != null) {
            outcome.parked().forEach(source -> log.warn("Parked record {}: not a valid event", source));
            if (outcome.stored() > 0) {
                scheduler.wakeUp(); // their deliveries are due now
            }
        }
    }
}
