package dev.cryptopay.notifications.sending;

import dev.cryptopay.notifications.config.NotificationProperties;
import dev.cryptopay.notifications.notification.DueNotification;
import dev.cryptopay.notifications.notification.NotificationRepository;
import dev.cryptopay.notifications.notification.NotificationStatus;
import dev.cryptopay.service.background.BackgroundLoop;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Sends due e-mails: each pass claims a batch, sends each, and records the outcome — sent; refused for good
 * ({@code failed}, with the server's answer); or due again after the next wait of the retry schedule, and
 * {@code given_up} after the last. A crash between the server's acceptance and the record sends that e-mail once more
 * after its lease: delivery is at least once, as SMTP itself is.
 */
@Component
public class SendLoop extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(SendLoop.class);
    private static final int PARALLEL_SENDS = 4;

    private final NotificationRepository notifications;
    private final MailSending mail;
    private final NotificationProperties.Sending settings;
    private final Clock clock;
    private final MeterRegistry meters;

    SendLoop(
            NotificationRepository notifications,
            MailSending mail,
            NotificationProperties properties,
            Clock clock,
            MeterRegistry meters) {
        this.notifications = notifications;
        this.mail = mail;
        this.settings = properties.sending();
        this.clock = clock;
        this.meters = meters;
    }

    /** Sends everything due now, batch after batch, until nothing is; answers how many attempts were made. */
    public Mono<Integer> drain() {
        return sendDue().expand(count -> count > 0 ? sendDue() : Mono.empty()).reduce(0, Integer::sum);
    }

    /** One batch: claims due e-mails and attempts each; answers how many were attempted. */
    Mono<Integer> sendDue() {
        return Mono.defer(() -> {
            Instant now = clock.instant();
            return notifications
                    .claim(now, settings.batchSize(), now.plus(settings.claimLease()))
                    .flatMap(due -> attempt(due).thenReturn(due), PARALLEL_SENDS)
                    .count()
                    .map(Long::intValue);
        });
    }

    private Mono<Void> attempt(DueNotification due) {
        return mail.send(due)
                .then(Mono.defer(() -> notifications.sent(due.id(), clock.instant())))
                .doOnSuccess(done -> count(due, "sent"))
                .onErrorResume(failure -> failed(due, SmtpOutcome.of(failure)));
    }

    private Mono<Void> failed(DueNotification due, SmtpOutcome outcome) {
        List<Duration> delays = settings.retryDelays();
        if (outcome.permanent()) {
            log.warn("E-mail {} ({}) refused for good: {}", due.id(), due.template(), outcome.error());
            count(due, "failed");
            return notifications.end(due.id(), NotificationStatus.FAILED, outcome.error());
        }
        if (due.attempts() > delays.size()) {
            log.warn(
                    "E-mail {} ({}) given up after {} attempts: {}",
                    due.id(),
                    due.template(),
                    due.attempts(),
                    outcome.error());
            count(due, "given_up");
            return notifications.end(due.id(), NotificationStatus.GIVEN_UP, outcome.error());
        }
        count(due, "retry");
        Instant retryAt = clock.instant().plus(delays.get(due.attempts() - 1));
        return notifications.retryAt(due.id(), outcome.error(), retryAt);
    }

    private void count(DueNotification due, String outcome) {
        Counter.builder("notifications.attempts")
                .description("SMTP attempts by template and outcome: sent, retry, failed (refused for good), given_up")
                .tag("template", due.template())
                .tag("outcome", outcome)
                .register(meters)
                .increment();
    }

    @Override
    protected Mono<Duration> runOnce() {
        return drain().thenReturn(settings.pollInterval());
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
