package dev.cryptopay.webhooks.delivery;

import dev.cryptopay.service.background.BackgroundLoop;
import dev.cryptopay.webhooks.config.WebhookProperties;
import dev.cryptopay.webhooks.endpoint.LegacySecretUpgrade;
import dev.cryptopay.webhooks.endpoint.SecretCipher;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Works through due deliveries: claims a batch (FOR UPDATE SKIP LOCKED, so instances share the work), attempts each
 * with bounded concurrency, and stores the state {@link Delivery#recordAttempt} answers for each result. Nothing is
 * held in memory between passes: after a crash, claimed deliveries become due again when their lease ends.
 */
@Component
public class DeliveryScheduler extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(DeliveryScheduler.class);

    private final DeliveryRepository deliveries;
    private final WebhookSender sender;
    private final RetrySchedule schedule;
    private final SecretCipher cipher;
    private final LegacySecretUpgrade upgrade;
    private final WebhookProperties.Delivery settings;
    private final Clock clock;
    private final MeterRegistry meters;
    private final TransactionalOperator tx;
    private final Timer eventToSuccess;

    public DeliveryScheduler(
            DeliveryRepository deliveries,
            WebhookSender sender,
            RetrySchedule schedule,
            SecretCipher cipher,
            LegacySecretUpgrade upgrade,
            WebhookProperties properties,
            Clock clock,
            MeterRegistry meters,
            TransactionalOperator tx) {
        this.deliveries = deliveries;
        this.sender = sender;
        this.schedule = schedule;
        this.cipher = cipher;
        this.upgrade = upgrade;
        this.settings = properties.delivery();
        this.clock = clock;
        this.tx = tx;
        this.meters = meters;
        this.eventToSuccess = Timer.builder("webhook.delivery.event.to.success")
                .description("From the event happening to the merchant's 2xx")
                .publishPercentileHistogram()
                .register(meters);
    }

    /** Attempts everything due now; answers how many attempts were made. */
    public Mono<Integer> drain() {
        return attemptBatch()
                .expand(count -> count == settings.batchSize() ? attemptBatch() : Mono.empty())
                .reduce(0, Integer::sum);
    }

    Mono<Integer> attemptBatch() {
        Instant now = clock.instant();
        return deliveries
                .claimDue(now, settings.batchSize(), now.plus(settings.claimLease()))
                .flatMap(ids -> ids.isEmpty()
                        ? Mono.just(0)
                        : deliveries
                                .load(ids)
                                .collectList()
                                .flatMapMany(Flux::fromIterable)
                                .flatMap(this::contained, settings.concurrency())
                                .count()
                                .map(Long::intValue));
    }

    /**
     * One attempt, isolated from the others of the pass: whatever goes wrong with it (a secret that no longer
     * decrypts, a row that cannot be written) is logged, and the delivery is tried again once its claim lapses.
     */
    private Mono<Boolean> contained(DueDelivery due) {
        return Mono.defer(() -> attempt(due)).onErrorResume(failure -> {
            log.warn(
                    "Attempt of delivery {} failed; it is retried after its claim lapses: {}",
                    due.delivery().id(),
                    failure.toString());
            return Mono.just(false);
        });
    }

    private Mono<Boolean> attempt(DueDelivery due) {
        Delivery delivery = due.delivery();
        if (delivery.status() != DeliveryStatus.PENDING) {
            // Finished by another instance after this one's claim had lapsed: nothing left to attempt.
            return Mono.just(false);
        }
        if (!due.endpointActive()) {
            return deliveries
                    .saveAbandoned(delivery.abandon("Endpoint was deleted or disabled"))
                    .thenReturn(false);
        }
        Instant started = clock.instant();
        // Bound to the endpoint: a secret copied from another endpoint's row throws here, and nothing is sent.
        SecretCipher.Opened opened = cipher.decrypt(delivery.endpointId(), due.secretEncrypted());
        String secret = opened.secret();
        Mono<Long> upgraded =
                opened.legacy() ? upgrade.upgrade(delivery.endpointId(), due.secretEncrypted(), secret) : Mono.just(0L);
        return upgraded.then(sender.send(
                        due.url(), delivery.eventId().toString(), due.body().getBytes(StandardCharsets.UTF_8), secret)
                .flatMap(result -> {
                    Instant now = clock.instant();
                    Delivery after = delivery.recordAttempt(result, started, schedule, now);
                    observe(due, result, after, now);
                    // The delivery's new state and its attempt log entry are one transaction: never one without the
                    // other.
                    return tx.transactional(deliveries.saveAttempt(delivery, after, result));
                }));
    }

    /** Metrics for every attempt, and a log line when a delivery has failed for good. */
    private void observe(DueDelivery due, AttemptResult result, Delivery after, Instant now) {
        Counter.builder("webhook.delivery.attempts")
                .tag("outcome", result.outcome())
                .description("Delivery attempts by outcome")
                .register(meters)
                .increment();
        if (after.status() == DeliveryStatus.SUCCEEDED && due.eventCreatedAt() != null) {
            eventToSuccess.record(Duration.between(due.eventCreatedAt(), now).abs());
        }
        if (after.status() == DeliveryStatus.FAILED) {
            log.info(
                    "Delivery {} of event {} failed for good after {} attempts: {}",
                    after.id(),
                    after.eventId(),
                    after.attempts(),
                    result.error());
        }
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
