package dev.cryptopay.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When attempts are due, as plain arithmetic: no Spring, no database. */
class RetryScheduleTest {

    private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
    private static final List<Duration> OFFSETS = List.of(
            Duration.ZERO, Duration.ofMinutes(5), Duration.ofMinutes(30), Duration.ofHours(2), Duration.ofHours(24));
    private static final RetrySchedule EXACT = new RetrySchedule(OFFSETS, 0, Duration.ofHours(1));

    @Test
    void attemptsFallOnTheOffsetsFromTheStartOfTheSchedule() {
        assertThat(EXACT.attempts()).isEqualTo(5);
        assertThat(EXACT.first(START)).isEqualTo(START);
        for (int done = 1; done < OFFSETS.size(); done++) {
            assertThat(EXACT.next(START, done, START, null))
                    .as("after %d failed attempts", done)
                    .isEqualTo(START.plus(OFFSETS.get(done)));
        }
        RetrySchedule delayed = new RetrySchedule(List.of(Duration.ofSeconds(10)), 0, Duration.ofHours(1));
        assertThat(delayed.first(START)).isEqualTo(START.plusSeconds(10));
    }

    @Test
    void theScheduleIsExhaustedAfterItsLastAttempt() {
        assertThat(EXACT.next(START, 5, START.plus(Duration.ofHours(24)), null)).isNull();
        assertThat(EXACT.next(START, 5, START, Duration.ofMinutes(1)))
                .as("a Retry-After does not extend it")
                .isNull();
    }

    @Test
    void jitterDelaysEachRetryByAtMostItsShareOfTheGap() {
        RetrySchedule jittered = new RetrySchedule(OFFSETS, 0.05, Duration.ofHours(1));
        for (int i = 0; i < 200; i++) {
            assertThat(jittered.next(START, 1, START, null))
                    .isBetween(
                            START.plus(Duration.ofMinutes(5)),
                            START.plus(Duration.ofMinutes(5).plusSeconds(15)));
            assertThat(jittered.next(START, 2, START, null))
                    .as("5 %% of the 25 minutes since the previous step")
                    .isBetween(
                            START.plus(Duration.ofMinutes(30)),
                            START.plus(Duration.ofMinutes(30).plusSeconds(75)));
        }
    }

    @Test
    void retryAfterMayPushTheNextAttemptLaterUpToItsBound() {
        Instant now = START.plusSeconds(1);

        assertThat(EXACT.next(START, 1, now, Duration.ofMinutes(15)))
                .as("15 minutes asked, later than the 5-minute step")
                .isEqualTo(now.plus(Duration.ofMinutes(15)));
        assertThat(EXACT.next(START, 1, now, Duration.ofSeconds(999_999)))
                .as("capped at one hour")
                .isEqualTo(now.plus(Duration.ofHours(1)));
        assertThat(EXACT.next(START, 1, now, Duration.ofSeconds(30)))
                .as("sooner than the schedule: the schedule wins")
                .isEqualTo(START.plus(Duration.ofMinutes(5)));
    }

    @Test
    void aStepAlreadyPastIsDueNow() {
        Instant late = START.plus(Duration.ofHours(1));

        assertThat(EXACT.next(START, 1, late, null)).isEqualTo(late);
    }
}
