package dev.cryptopay.webhooks.delivery;

import dev.cryptopay.webhooks.config.WebhookProperties;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * When the next attempt is due. Offsets count from the start of the delivery's schedule (0, 5 min, 30 min, 2 h,
 * 24 h by default), each retry delayed by a little jitter so a receiver that failed for many deliveries at once is
 * not hit by all of them in the same second. A receiver's Retry-After may push an attempt later, up to a bound.
 */
@Component
public class RetrySchedule {

    private final List<Duration> offsets;
    private final double jitter;
    private final Duration maxRetryAfter;

    @Autowired
    public RetrySchedule(WebhookProperties properties) {
        this(
                properties.delivery().retrySchedule(),
                properties.delivery().jitter(),
                properties.delivery().maxRetryAfter());
    }

    RetrySchedule(List<Duration> offsets, double jitter, Duration maxRetryAfter) {
        this.offsets = List.copyOf(offsets);
        this.jitter = jitter;
        this.maxRetryAfter = maxRetryAfter;
    }

    public int attempts() {
        return offsets.size();
    }

    /** The first attempt of a schedule starting at {@code start}. */
    public Instant first(Instant start) {
        return start.plus(offsets.get(0));
    }

    /** Where a schedule whose first attempt is at {@code firstAttempt} starts. */
    public Instant startOf(Instant firstAttempt) {
        return firstAttempt.minus(offsets.get(0));
    }

    /**
     * The due time of the next attempt after {@code attemptsDone} failed attempts in the schedule started at
     * {@code start}, or null when the schedule is exhausted.
     */
    public Instant next(Instant start, int attemptsDone, Instant now, Duration retryAfter) {
        if (attemptsDone >= offsets.size()) {
            return null;
        }
        Duration offset = offsets.get(attemptsDone);
        Duration previous = offsets.get(attemptsDone - 1);
        long spreadMillis = (long) (offset.minus(previous).toMillis() * jitter);
        Instant due = start.plus(offset)
                .plusMillis(spreadMillis > 0 ? ThreadLocalRandom.current().nextLong(spreadMillis + 1) : 0);
        if (retryAfter != null) {
            Duration bounded = retryAfter.compareTo(maxRetryAfter) > 0 ? maxRetryAfter : retryAfter;
            Instant requested = now.plus(bounded);
            if (requested.isAfter(due)) {
                due = requested;
            }
        }
        return due.isBefore(now) ? now : due;
    }
}
