package dev.cryptopay.notifications.intake;

import dev.cryptopay.notifications.compose.EmailComposer;
import dev.cryptopay.notifications.email.EmailCatalog;
import dev.cryptopay.notifications.email.Notice;
import dev.cryptopay.notifications.merchant.MerchantProfiles;
import dev.cryptopay.notifications.notification.NotificationRepository;
import dev.cryptopay.notifications.reminder.ReminderSchedule;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Takes one poll's records in one transaction: each event that names someone to write to becomes its e-mails,
 * rendered now and kept once per (event, template, recipient) — a redelivered event, or one read by a second
 * instance, adds nothing — and moves the reminder before its subscription's next payment. Merchant names the events
 * carry are remembered. A record that is not an event is passed over and counted (webhook-service parks such records
 * for operators; this service has nothing to send from one).
 */
@Component
public class NotificationIntake {

    private static final Logger log = LoggerFactory.getLogger(NotificationIntake.class);

    private final EmailCatalog catalog;
    private final EmailComposer composer;
    private final NotificationRepository notifications;
    private final MerchantProfiles profiles;
    private final ReminderSchedule reminders;
    private final TransactionalOperator tx;
    private final JsonMapper json;
    private final Clock clock;
    private final Counter invalid;

    NotificationIntake(
            EmailCatalog catalog,
            EmailComposer composer,
            NotificationRepository notifications,
            MerchantProfiles profiles,
            ReminderSchedule reminders,
            TransactionalOperator tx,
            JsonMapper json,
            Clock clock,
            MeterRegistry meters) {
        this.catalog = catalog;
        this.composer = composer;
        this.notifications = notifications;
        this.profiles = profiles;
        this.reminders = reminders;
        this.tx = tx;
        this.json = json;
        this.clock = clock;
        this.invalid = Counter.builder("notifications.intake.invalid")
                .description("Records on the event topics that were not events, passed over")
                .register(meters);
    }

    /** Keeps the e-mails of these records and moves their reminders; answers how many e-mails were new. */
    public Mono<Long> accept(List<ConsumerRecord<String, String>> records) {
        return Mono.defer(() -> {
            List<Notice> notices = new ArrayList<>();
            List<ReminderSchedule.Announced> announced = new ArrayList<>();
            for (ConsumerRecord<String, String> record : records) {
                Notice notice;
                try {
                    notice = Notice.fromEnvelope(json, record.value());
                } catch (IllegalArgumentException notAnEvent) {
                    invalid.increment();
                    log.warn(
                            "Passed over {}/{}/{}: {}",
                            record.topic(),
                            record.partition(),
                            record.offset(),
                            notAnEvent.getMessage());
                    continue;
                }
                if (notice.notifyTo() != null) {
                    notices.add(notice);
                    announced.add(new ReminderSchedule.Announced(notice, record.value()));
                }
            }
            if (notices.isEmpty()) {
                return Mono.just(0L);
            }
            Instant now = clock.instant();
            Mono<Long> keep = profiles.remember(EmailComposer.carriedNames(notices), now)
                    .then(reminders.follow(announced, now))
                    .then(composer.compose(
                            notices.stream().map(EmailComposer.Source::of).toList(),
                            (source, name) -> catalog.emailsFor(source.notice(), name)))
                    .flatMap(made -> notifications.insertNew(made, now));
            return tx.transactional(keep);
        });
    }
}
