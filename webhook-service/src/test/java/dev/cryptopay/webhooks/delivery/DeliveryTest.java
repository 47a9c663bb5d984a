package dev.cryptopay.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.cryptopay.service.events.Transition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The delivery's transitions as plain values: no Spring, no database. */
class DeliveryTest {

    private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
    private static final RetrySchedule SCHEDULE = new RetrySchedule(
            List.of(
                    Duration.ZERO,
                    Duration.ofMinutes(5),
                    Duration.ofMinutes(30),
                    Duration.ofHours(2),
                    Duration.ofHours(24)),
            0,
            Duration.ofHours(1));

    private static Delivery scheduled() {
        return Delivery.schedule(UUID.randomUUID(), UUID.randomUUID(), "payment.failed", SCHEDULE, START)
                .state();
    }

    private static AttemptResult ok() {
        return new AttemptResult(200, "success", null, 15, null, "thanks");
    }

    private static AttemptResult serverError() {
        return serverError(null);
    }

    private static AttemptResult serverError(Duration retryAfter) {
        return new AttemptResult(503, "http_error", "HTTP 503", 20, retryAfter, "busy");
    }

    private static AttemptResult timeout() {
        return new AttemptResult(null, "timeout", "no answer", 30_000, null, null);
    }

    /** Records a failed attempt at the moment the delivery is due, as the scheduler would. */
    private static Delivery failOnTime(Delivery delivery) {
        Instant due = delivery.nextAttemptAt();
        return delivery.recordAttempt(serverError(), due, SCHEDULE, due.plusMillis(20))
                .state();
    }

    @Test
    void aNewDeliveryIsPendingWithItsFirstAttemptWhereTheScheduleStarts() {
        Delivery delivery = scheduled();

        assertThat(delivery.status()).isEqualTo(DeliveryStatus.PENDING);
        assertThat(delivery.attempts()).isZero();
        assertThat(delivery.cycleAttempts()).isZero();
        assertThat(delivery.cycleStartedAt()).isEqualTo(START);
        assertThat(delivery.nextAttemptAt()).isEqualTo(START);
        assertThat(delivery.createdAt()).isEqualTo(START);
        assertThat(delivery.lastAttemptAt()).isNull();

        RetrySchedule delayed = new RetrySchedule(List.of(Duration.ofSeconds(10)), 0, Duration.ofHours(1));
        assertThat(Delivery.schedule(UUID.randomUUID(), UUID.randomUUID(), "payment.failed", delayed, START)
                        .state()
                        .nextAttemptAt())
                .isEqualTo(START.plusSeconds(10));
    }

    @Test
    void aSuccessfulAttemptSucceedsTheDelivery() {
        Delivery pending = scheduled();
        Instant started = START.plusSeconds(1);
        Instant now = started.plusMillis(15);

        Delivery succeeded = pending.recordAttempt(ok(), started, SCHEDULE, now).state();

        assertThat(succeeded.status()).isEqualTo(DeliveryStatus.SUCCEEDED);
        assertThat(succeeded.attempts()).isEqualTo(1);
        assertThat(succeeded.cycleAttempts()).isEqualTo(1);
        assertThat(succeeded.nextAttemptAt()).isNull();
        assertThat(succeeded.lastAttemptAt()).isEqualTo(started);
        assertThat(succeeded.lastStatusCode()).isEqualTo(200);
        assertThat(succeeded.lastError()).isNull();
        assertThat(succeeded.succeededAt()).isEqualTo(now);
        assertThat(succeeded.id()).isEqualTo(pending.id());
        assertThat(pending.status()).as("the old state is untouched").isEqualTo(DeliveryStatus.PENDING);
    }

    @Test
    void aFailedAttemptWithTheScheduleNotExhaustedStaysPendingUntilTheNextStep() {
        Delivery failedOnce = scheduled()
                .recordAttempt(serverError(), START, SCHEDULE, START.plusMillis(20))
                .state();

        assertThat(failedOnce.status()).isEqualTo(DeliveryStatus.PENDING);
        assertThat(failedOnce.attempts()).isEqualTo(1);
        assertThat(failedOnce.cycleAttempts()).isEqualTo(1);
        assertThat(failedOnce.nextAttemptAt()).isEqualTo(START.plus(Duration.ofMinutes(5)));
        assertThat(failedOnce.lastStatusCode()).isEqualTo(503);
        assertThat(failedOnce.lastError()).isEqualTo("HTTP 503");
        assertThat(failedOnce.succeededAt()).isNull();

        Delivery noAnswer = failedOnce
                .recordAttempt(
                        timeout(),
                        failedOnce.nextAttemptAt(),
                        SCHEDULE,
                        failedOnce.nextAttemptAt().plusSeconds(30))
                .state();
        assertThat(noAnswer.lastStatusCode()).as("no response, no status code").isNull();
        assertThat(noAnswer.lastError()).isEqualTo("no answer");
        assertThat(noAnswer.nextAttemptAt()).isEqualTo(START.plus(Duration.ofMinutes(30)));
    }

    @Test
    void aFirstAttemptThatStartsLateMovesTheScheduleWithIt() {
        // Held for two days (its endpoint was disabled), then attempted: the retries keep their spacing from there.
        Instant late = START.plus(Duration.ofDays(2));

        Delivery failedOnce = scheduled()
                .recordAttempt(serverError(), late, SCHEDULE, late.plusMillis(20))
                .state();

        assertThat(failedOnce.cycleStartedAt()).isEqualTo(late);
        assertThat(failedOnce.nextAttemptAt()).isEqualTo(late.plus(Duration.ofMinutes(5)));
        Instant second = failedOnce.nextAttemptAt().plusSeconds(3);
        Delivery failedTwice = failedOnce
                .recordAttempt(serverError(), second, SCHEDULE, second.plusMillis(20))
                .state();
        assertThat(failedTwice.cycleStartedAt())
                .as("only the first attempt moves it")
                .isEqualTo(late);
        assertThat(failedTwice.nextAttemptAt()).isEqualTo(late.plus(Duration.ofMinutes(30)));
    }

    @Test
    void aSuccessAfterFailuresClearsTheLastError() {
        Delivery failedOnce = failOnTime(scheduled());
        Instant due = failedOnce.nextAttemptAt();

        Delivery succeeded = failedOnce
                .recordAttempt(ok(), due, SCHEDULE, due.plusMillis(15))
                .state();

        assertThat(succeeded.status()).isEqualTo(DeliveryStatus.SUCCEEDED);
        assertThat(succeeded.attempts()).isEqualTo(2);
        assertThat(succeeded.lastError()).isNull();
        assertThat(succeeded.lastStatusCode()).isEqualTo(200);
    }

    @Test
    void theFifthFailureExhaustsTheScheduleAndFailsTheDelivery() {
        List<Duration> offsets =
                List.of(Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(24));
        Delivery delivery = scheduled();
        for (Duration offset : offsets) {
            delivery = failOnTime(delivery);
            assertThat(delivery.status()).isEqualTo(DeliveryStatus.PENDING);
            assertThat(delivery.nextAttemptAt()).isEqualTo(START.plus(offset));
        }

        Delivery failed = failOnTime(delivery);

        assertThat(failed.status()).isEqualTo(DeliveryStatus.FAILED);
        assertThat(failed.attempts()).isEqualTo(5);
        assertThat(failed.cycleAttempts()).isEqualTo(5);
        assertThat(failed.nextAttemptAt()).isNull();
        assertThat(failed.lastError()).isEqualTo("HTTP 503");
        assertThat(failed.succeededAt()).isNull();
    }

    @Test
    void retryAfterPushesTheNextAttemptLaterWithinItsBoundButNeverEarlier() {
        Instant now = START.plusMillis(20);

        assertThat(scheduled()
                        .recordAttempt(serverError(Duration.ofMinutes(15)), START, SCHEDULE, now)
                        .state()
                        .nextAttemptAt())
                .as("15 minutes asked, later than the 5-minute step")
                .isEqualTo(now.plus(Duration.ofMinutes(15)));
        assertThat(scheduled()
                        .recordAttempt(serverError(Duration.ofSeconds(999_999)), START, SCHEDULE, now)
                        .state()
                        .nextAttemptAt())
                .as("capped at one hour")
                .isEqualTo(now.plus(Duration.ofHours(1)));
        assertThat(scheduled()
                        .recordAttempt(serverError(Duration.ofSeconds(30)), START, SCHEDULE, now)
                        .state()
                        .nextAttemptAt())
                .as("sooner than the schedule: the schedule wins")
                .isEqualTo(START.plus(Duration.ofMinutes(5)));
    }

    @Test
    void onlyAPendingDeliveryTakesAnAttempt() {
        Delivery succeeded =
                scheduled().recordAttempt(ok(), START, SCHEDULE, START).state();
        Delivery failed = scheduled().abandon("gone").state();

        assertThatIllegalStateException()
                .isThrownBy(() -> succeeded.recordAttempt(ok(), START, SCHEDULE, START))
                .withMessageContaining("succeeded");
        assertThatIllegalStateException()
                .isThrownBy(() -> failed.recordAttempt(serverError(), START, SCHEDULE, START))
                .withMessageContaining("failed");
    }

    @Test
    void abandoningAPendingDeliveryFailsItWithTheReason() {
        Delivery failedOnce = failOnTime(scheduled());

        Delivery abandoned =
                failedOnce.abandon("Endpoint was deleted or disabled").state();

        assertThat(abandoned.status()).isEqualTo(DeliveryStatus.FAILED);
        assertThat(abandoned.nextAttemptAt()).isNull();
        assertThat(abandoned.lastError()).isEqualTo("Endpoint was deleted or disabled");
        assertThat(abandoned.attempts()).as("no attempt was made").isEqualTo(1);
        assertThat(abandoned.lastStatusCode()).isEqualTo(503);
    }

    @Test
    void onlyAPendingDeliveryCanBeAbandoned() {
        Delivery succeeded =
                scheduled().recordAttempt(ok(), START, SCHEDULE, START).state();
        Delivery failed = scheduled().abandon("gone").state();

        assertThatIllegalStateException().isThrownBy(() -> succeeded.abandon("gone"));
        assertThatIllegalStateException().isThrownBy(() -> failed.abandon("gone again"));
    }

    @Test
    void aManualRetryStartsAFreshScheduleNowFromAnyStatus() {
        Instant later = START.plus(Duration.ofDays(3));
        Delivery exhausted = scheduled();
        for (int i = 0; i < 5; i++) {
            exhausted = failOnTime(exhausted);
        }
        Delivery succeeded =
                scheduled().recordAttempt(ok(), START, SCHEDULE, START).state();
        Delivery pending = failOnTime(scheduled());

        for (Delivery before : List.of(exhausted, succeeded, pending)) {
            Delivery restarted = before.restart(later).state();

            assertThat(restarted.status()).as(before.status().wireName()).isEqualTo(DeliveryStatus.PENDING);
            assertThat(restarted.cycleAttempts()).isZero();
            assertThat(restarted.cycleStartedAt()).isEqualTo(later);
            assertThat(restarted.nextAttemptAt()).isEqualTo(later);
            assertThat(restarted.attempts()).as("the history is kept").isEqualTo(before.attempts());
            assertThat(restarted.lastAttemptAt()).isEqualTo(before.lastAttemptAt());
            assertThat(restarted.succeededAt()).isEqualTo(before.succeededAt());
        }

        Delivery failedAgain = exhausted
                .restart(later)
                .then(restarted -> restarted.recordAttempt(serverError(), later, SCHEDULE, later))
                .state();
        assertThat(failedAgain.status()).isEqualTo(DeliveryStatus.PENDING);
        assertThat(failedAgain.attempts()).isEqualTo(6);
        assertThat(failedAgain.nextAttemptAt())
                .as("the fresh schedule counts from the retry")
                .isEqualTo(later.plus(Duration.ofMinutes(5)));
    }

    @Test
    void recoveringRestartsAFailedDeliveryOnly() {
        Instant later = START.plus(Duration.ofDays(3));
        Delivery failed = scheduled().abandon("gone").state();

        assertThat(failed.recover(later)).isEqualTo(failed.restart(later));
        assertThatIllegalStateException().isThrownBy(() -> scheduled().recover(later));
        assertThatIllegalStateException()
                .isThrownBy(() -> scheduled()
                        .recordAttempt(ok(), START, SCHEDULE, START)
                        .state()
                        .recover(later));
    }

    @Test
    void everyMoveChangesTheDeliveryAndEmitsNoEvent() {
        // webhook-service publishes no events: its moves only ever answer a new state to store.
        Instant later = START.plus(Duration.ofDays(3));
        Delivery failed = scheduled().abandon("gone").state();
        List<Transition<Delivery>> moves = List.of(
                Delivery.schedule(UUID.randomUUID(), UUID.randomUUID(), "payment.failed", SCHEDULE, START),
                scheduled().recordAttempt(ok(), START, SCHEDULE, START),
                scheduled().recordAttempt(serverError(), START, SCHEDULE, START),
                scheduled().abandon("gone"),
                failed.restart(later),
                failed.recover(later));

        for (Transition<Delivery> move : moves) {
            assertThat(move.changed()).as(move.state().status().wireName()).isTrue();
            assertThat(move.emits()).as(move.state().status().wireName()).isFalse();
        }
    }

    @Test
    void statusesHaveFixedWireNames() {
        assertThat(DeliveryStatus.values())
                .extracting(DeliveryStatus::wireName)
                .containsExactly("pending", "succeeded", "failed");
        for (DeliveryStatus status : DeliveryStatus.values()) {
            assertThat(DeliveryStatus.fromWireName(status.wireName())).isEqualTo(status);
        }
        assertThatIllegalArgumentException().isThrownBy(() -> DeliveryStatus.fromWireName("PENDING"));
        assertThatIllegalArgumentException().isThrownBy(() -> DeliveryStatus.fromWireName(null));
    }
}
