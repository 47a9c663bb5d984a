package dev.cryptopay.notifications.intake;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.notifications.email.EmailCatalog;
import dev.cryptopay.notifications.email.EmailTemplate;
import dev.cryptopay.notifications.email.Notice;
import dev.cryptopay.notifications.merchant.MerchantProfiles;
import dev.cryptopay.notifications.notification.NotificationRepository;
import dev.cryptopay.notifications.notification.NotificationRepository.NewNotification;
import dev.cryptopay.notifications.settings.NotificationSettings;
import dev.cryptopay.notifications.settings.SettingsRepository;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import reactor.util.function.Tuples;
import tools.jackson.databind.json.JsonMapper;

/**
 * Takes one poll's records: each event that names someone to write to becomes its e-mails, rendered now and kept in
 * one transaction, once per (event, template, recipient) — a redelivered event, or one read by a second instance,
 * adds nothing. A record that is not an event is passed over and counted (webhook-service parks such records for
 * operators; this service has nothing to send from one).
 */
@Component
public class NotificationIntake {

    private static final Logger log = LoggerFactory.getLogger(NotificationIntake.class);

    private final EmailCatalog catalog;
    private final NotificationRepository notifications;
    private final MerchantProfiles profiles;
    private final SettingsRepository settings;
    private final TransactionalOperator tx;
    private final JsonMapper json;
    private final Clock clock;
    private final Counter invalid;

    NotificationIntake(
            EmailCatalog catalog,
            NotificationRepository notifications,
            MerchantProfiles profiles,
            SettingsRepository settings,
            TransactionalOperator tx,
            JsonMapper json,
            Clock clock,
            MeterRegistry meters) {
        this.catalog = catalog;
        this.notifications = notifications;
        this.profiles = profiles;
        this.settings = settings;
        this.tx = tx;
        this.json = json;
        this.clock = clock;
        this.invalid = Counter.builder("notifications.intake.invalid")
                .description("Records on the event topics that were not events, passed over")
                .register(meters);
    }

    /**
     * The event's e-mails as the merchant chose: those switched off left out, its name for e-mails (else the event's,
     * else the one remembered), its support address as the Reply-To.
     */
    private List<NewNotification> emails(Notice notice, NotificationSettings chosen, Map<UUID, String> names) {
        String eventName = notice.notifyText("merchant_name");
        String name = chosen.displayName() != null
                ? chosen.displayName()
                : eventName != null ? eventName : names.get(notice.merchantId());
        return catalog.emailsFor(notice, name).stream()
                .filter(email -> EmailTemplate.fromWireName(email.template())
                        .map(chosen::sends)
                        .orElse(true))
                .map(email -> new NewNotification(
                        notice.eventId(),
                        notice.type(),
                        notice.merchantId(),
                        notice.mode(),
                        email.withReplyTo(chosen.supportEmail())))
                .toList();
    }

    /**
     * Keeps the e-mails of these records; answers how many were new. Merchant names the events carry are remembered,
     * and name the merchant in e-mails of events that carry none.
     */
    public Mono<Long> accept(List<ConsumerRecord<String, String>> records) {
        return Mono.defer(() -> {
            List<Notice> notices = new ArrayList<>();
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
                }
            }
            if (notices.isEmpty()) {
                return Mono.just(0L);
            }
            Instant now = clock.instant();
            Map<UUID, String> carried = new HashMap<>();
            Set<UUID> unnamed = new HashSet<>();
            for (Notice notice : notices) {
                String name = notice.notifyText("merchant_name");
                if (name != null) {
                    carried.put(notice.merchantId(), name);
                } else {
                    unnamed.add(notice.merchantId());
                }
            }
            unnamed.removeAll(carried.keySet());
            Set<MerchantIdentity> senders = new HashSet<>();
            notices.forEach(notice -> senders.add(new MerchantIdentity(notice.merchantId(), notice.mode())));
            Mono<Long> keep = profiles.remember(carried, now)
                    // One after the other: the statements share the transaction's connection.
                    .then(profiles.namesOf(unnamed))
                    .flatMap(kept -> settings.findAll(senders).map(chosenBy -> Tuples.of(kept, chosenBy)))
                    .flatMap(loaded -> {
                        Map<UUID, String> names = new HashMap<>(loaded.getT1());
                        names.putAll(carried);
                        List<NewNotification> made = new ArrayList<>();
                        for (Notice notice : notices) {
                            NotificationSettings chosen = loaded.getT2()
                                    .getOrDefault(
                                            new MerchantIdentity(notice.merchantId(), notice.mode()),
                                            NotificationSettings.DEFAULT);
                            made.addAll(emails(notice, chosen, names));
                        }
                        return notifications.insertNew(made, now);
                    });
            return tx.transactional(keep);
        });
    }
}
