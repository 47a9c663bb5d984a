package dev.cryptopay.webhooks.delivery;

import dev.cryptopay.webhooks.delivery.DeliveryRepository.AttemptRecord;
import dev.cryptopay.webhooks.endpoint.EndpointHealth;
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
import reactor.core.publisher.Mono;

/**
 * One attempt of a claimed delivery: sign and send it, then record the result — the delivery's new state, its
 * attempt log entry and the endpoint's health, never one without the others: a success in one statement shared with
 * the other successes finishing meanwhile ({@link SucceededAttempts}), a failure in one transaction with its count
 * towards disabling the endpoint. Isolated: whatever goes wrong with one attempt is logged and never reaches another.
 */
@Component
class DeliveryAttempts {

    private static final Logger log = LoggerFactory.getLogger(DeliveryAttempts.class);

    private final DeliveryRepository deliveries;
    private final SucceededAttempts successes;
    private final DeliveryClaims claims;
    private final WebhookSender sender;
    private final RetrySchedule schedule;
    private final SecretCipher cipher;
    private final LegacySecretUpgrade upgrade;
    private final EndpointHealth health;
    private final Clock clock;
    private final MeterRegistry meters;
    private final TransactionalOperator tx;
    private final Timer eventToSuccess;

    DeliveryAttempts(
            DeliveryRepository deliveries,
            SucceededAttempts successes,
            DeliveryClaims claims,
            WebhookSender sender,
            RetrySchedule schedule,
            SecretCipher cipher,
            LegacySecretUpgrade upgrade,
            EndpointHealth health,
            Clock clock,
            MeterRegistry meters,
            TransactionalOperator tx) {
        this.deliveries = deliveries;
        this.successes = successes;
        this.claims = claims;
        this.sender = sender;
        this.schedule = schedule;
        this.cipher = cipher;
        this.upgrade = upgrade;
        this.health = health;
        this.clock = clock;
        this.meters = meters;
        this.tx = tx;
        this.eventToSuccess = Timer.builder("webhook.delivery.event.to.success")
                .description("From the event happening to the merchant's 2xx")
                .publishPercentileHistogram()
                .register(meters);
    }

    /**
     * Attempts the delivery; never fails. Whatever goes wrong (a secret that no longer decrypts, a row that cannot be
     * written) is logged, and the delivery is tried again once its claim lapses.
     *
     * @return whether an attempt was recorded
     */
    Mono<Boolean> attempt(DueDelivery due) {
        return Mono.defer(() -> run(due)).onErrorResume(failure -> {
            log.warn(
                    "Attempt of delivery {} failed; it is retried after its claim lapses: {}",
                    due.delivery().id(),
                    failure.toString());
            return Mono.just(false);
        });
    }

    private Mono<Boolean> run(DueDelivery due) {
        Delivery delivery = due.delivery();
        if (delivery.status() != DeliveryStatus.PENDING) {
            // Finished by another instance after this one's claim had lapsed: nothing left to attempt.
            return Mono.just(false);
        }
        if (due.endpointDeleted()) {
            return deliveries
                    .saveAbandoned(delivery.abandon("Endpoint was deleted").state())
                    .thenReturn(false);
        }
        if (!due.endpointEnabled()) {
            // Disabled after the claim: the delivery is held with the others until the endpoint is enabled again.
            return claims.release(delivery.id()).thenReturn(false);
        }
        Instant started = clock.instant();
        // Bound to the endpoint: a secret copied from another endpoint's row throws here, and nothing is sent.
        SecretCipher.Opened opened = cipher.decrypt(delivery.endpointId(), due.secretEncrypted());
        String secret = opened.secret();
        Mono<Long> upgraded =
                opened.legacy() ? upgrade.upgrade(delivery.endpointId(), due.secretEncrypted(), secret) : Mono.just(0L);
        byte[] body = due.body().getBytes(StandardCharsets.UTF_8);
        return upgraded.then(sender.send(due.url(), delivery.eventId().toString(), body, secret))
                .flatMap(result -> record(due, result, started));
    }

    /**
     * The delivery's new state, its attempt log entry and the endpoint's health. A success shares a write with the
     * others finishing meanwhile; a failure is counted towards disabling the endpoint in the same transaction, and a
     * disable it caused is announced once that transaction has committed.
     */
    private Mono<Boolean> record(DueDelivery due, AttemptResult result, Instant started) {
        Delivery delivery = due.delivery();
        Instant now = clock.instant();
        Delivery after = delivery.recordAttempt(result, started, schedule, now).state();
        observe(due, result, after, now);
        AttemptRecord attempt = new AttemptRecord(delivery, after, result);
        if (result.succeeded()) {
            return successes.record(attempt);
        }
        Mono<Outcome> recorded = deliveries
                .saveAttempt(attempt)
                .flatMap(saved -> !saved
                        ? Mono.just(new Outcome(false, null))
                        : health.recordFailure(delivery.endpointId(), started, now)
                                .map(disabled -> new Outcome(true, disabled))
                                .defaultIfEmpty(new Outcome(true, null)));
        return tx.transactional(recorded).map(outcome -> {
            if (outcome.disabled() != null) {
                health.announce(outcome.disabled());
            }
            return outcome.recorded();
        });
    }

    /** What recording an attempt came to: dropped if the delivery had moved on; the endpoint it disabled, if any. */
    private record Outcome(boolean recorded, EndpointHealth.Disabled disabled) {}

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
}
