package dev.cryptopay.notifications.intake;

import dev.cryptopay.notifications.sending.SendLoop;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * The Kafka side of intake: a batch listener whose offsets (ack-mode BATCH) are committed only after
 * {@link NotificationIntake} kept the poll's e-mails; if the database is down the listener throws and the same records
 * come again (the retry-forever error handler), so no event is skipped.
 */
@Component
class EventConsumer {

    private static final Duration STORE_TIMEOUT = Duration.ofSeconds(30);

    private final NotificationIntake intake;
    private final SendLoop sender;

    EventConsumer(NotificationIntake intake, SendLoop sender) {
        this.intake = intake;
        this.sender = sender;
    }

    @KafkaListener(
            id = "notification-intake",
            topicPattern = "${notifications.topic-pattern:.*\\.events}",
            groupId = "${notifications.consumer-group:notification-service}",
            batch = "true")
    void onRecords(List<ConsumerRecord<String, String>> records) {
        Long kept = intake.accept(records).block(STORE_TIMEOUT);
        if (kept != null && kept > 0) {
            sender.wakeUp(); // they are due now
        }
    }
}
