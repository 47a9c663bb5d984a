package dev.cryptopay.webhooks.intake;

import java.time.Duration;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * The Kafka side of intake. With ack-mode RECORD the offset is committed only after {@link EventIntake} committed
 * its transaction; if the database is down the listener throws, the container backs off and reads the same record
 * again, so nothing is skipped. Invalid records are parked by the intake and do not throw.
 */
@Component
class EventConsumer {

    private static final Logger log = LoggerFactory.getLogger(EventConsumer.class);
    private static final Duration STORE_TIMEOUT = Duration.ofSeconds(30);

    private final EventIntake intake;

    EventConsumer(EventIntake intake) {
        this.intake = intake;
    }

    @KafkaListener(
            id = "webhook-intake",
            topicPattern = "${webhooks.topic-pattern:.*\\.events}",
            groupId = "${webhooks.consumer-group:webhook-service}")
    void onRecord(ConsumerRecord<String, String> record) {
        EventIntake.Outcome outcome = intake.accept(record).block(STORE_TIMEOUT);
        if (outcome == EventIntake.Outcome.PARKED) {
            log.warn("Parked record {}/{}/{}: not a valid event", record.topic(), record.partition(), record.offset());
        }
    }
}
