package dev.cryptopay.notifications.reminder;

import dev.cryptopay.notifications.compose.EmailComposer;
import dev.cryptopay.notifications.config.NotificationProperties;
import dev.cryptopay.notifications.email.EmailCatalog;
import dev.cryptopay.notifications.email.Notice;
import dev.cryptopay.notifications.email.PaymentCheck;
import dev.cryptopay.notifications.notification.NotificationRepository;
import dev.cryptopay.notifications.sending.SendLoop;
import dev.cryptopay.service.background.BackgroundLoop;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends the reminders whose moment came: for each, reads the wallet's balance and allowance on the subscription's
 * chain, words the e-mail from them and keeps it (once per link and due time: the e-mail's id is derived from both, so
 * a crash between keeping it and marking the reminder sends nothing twice), then marks the reminder. A chain that
 * does not answer leaves the reminder for another try after the claim lease; a payment already due is not reminded.
 */
@Component
public class ReminderLoop extends BackgroundLoop {

    /** What the e-mail log names a reminder's source: there is no event, the schedule is. */
    public static final String SOURCE_TYPE = "subscription.payment.reminder";

    private static final Logger log = LoggerFactory.getLogger(ReminderLoop.class);

    private final ReminderSchedule schedule;
    private final ChainBalances chain;
    private final EmailCatalog catalog;
    private final EmailComposer composer;
    private final NotificationRepository notifications;
    private final SendLoop sender;
    private final TransactionalOperator tx;
    private final JsonMapper json;
    private final NotificationProperties.Reminders settings;
    private final Clock clock;

    ReminderLoop(
            ReminderSchedule schedule,
            ChainBalances chain,
            EmailCatalog catalog,
            EmailComposer composer,
            NotificationRepository notifications,
            SendLoop sender,
            TransactionalOperator tx,
            JsonMapper json,
            NotificationProperties properties,
            Clock clock) {
        this.schedule = schedule;
        this.chain = chain;
        this.catalog = catalog;
        this.composer = composer;
        this.notifications = notifications;
        this.sender = sender;
        this.tx = tx;
        this.json = json;
        this.settings = properties.reminders();
        this.clock = clock;
    }

    /** One pass: claims the reminders due now and sends each; answers how many e-mails were kept. */
    public Mono<Long> runDue() {
        return Mono.defer(() -> {
            Instant now = clock.instant();
            return schedule.claim(now, settings.batchSize(), now.plus(settings.claimLease()))
                    .concatMap(due -> remind(due).onErrorResume(failure -> {
                        log.warn(
                                "Reminder of link {} not sent, tried again after {}: {}",
                                due.linkId(),
                                settings.claimLease(),
                                failure.toString());
                        return Mono.just(0L);
                    }))
                    .reduce(0L, Long::sum)
                    .doOnNext(kept -> {
                        if (kept > 0) {
                            sender.wakeUp();
                        }
                    });
        });
    }

    private Mono<Long> remind(ReminderSchedule.Due due) {
        Notice notice = Notice.fromEnvelope(json, due.envelope());
        JsonNode next = notice.notifyTo().path("next_payment");
        long chainId = next.path("chain_id").asLong();
        return chain.holding(
                        chainId,
                        next.path("token_contract").asString(),
                        next.path("wallet").asString(),
                        next.path("spender").asString())
                .map(holding -> holding.map(read -> PaymentCheck.read(
                                due.dueAt(),
                                read.balance(),
                                read.allowance(),
                                new BigInteger(next.path("amount_base_units").asString("0")),
                                next.path("decimals").asInt(0)))
                        .orElseGet(() -> PaymentCheck.unread(due.dueAt())))
                .flatMap(check -> tx.transactional(composer.compose(
                                List.of(new EmailComposer.Source(notice, emailId(due), SOURCE_TYPE)),
                                (source, name) -> List.of(catalog.reminder(source.notice(), name, check)))
                        .flatMap(made -> notifications.insertNew(made, clock.instant()))
                        .flatMap(kept ->
                                schedule.reminded(due.linkId(), due.dueAt()).thenReturn(kept))));
    }

    /** The e-mail id of one link's reminder for one due time: the same on every try. */
    static UUID emailId(ReminderSchedule.Due due) {
        return UUID.nameUUIDFromBytes(
                ("reminder:" + due.linkId() + ":" + due.dueAt()).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    protected Mono<Duration> runOnce() {
        return runDue().thenReturn(settings.pollInterval());
    }

    @Override
    protected Duration delayAfterFailure() {
        return settings.pollInterval();
    }

    @Override
    protected boolean enabled() {
        return settings.enabled();
    }
}
