package dev.cryptopay.client;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * When a request is sent again. A 429 (the gateway refused it before it reached a service) is retried after its
 * {@code Retry-After}; a lost connection, 502, 503 or 504 only when sending again cannot do a thing twice: GET, PUT
 * and DELETE, and a POST that carries an {@code Idempotency-Key}. Other attempts wait {@code firstDelay} doubled each
 * time (with jitter, up to {@code maxDelay}). A wait longer than {@code maxDelay} is not made: the error is thrown
 * with its {@code Retry-After} instead.
 *
 * @param maxAttempts attempts in all, 1 to never retry
 * @param firstDelay  the wait before the second attempt when the answer names none
 * @param maxDelay    the longest single wait
 */
public record RetryPolicy(int maxAttempts, Duration firstDelay, Duration maxDelay) {

    /** Three attempts, 500 ms then 1 s, waits of at most 30 s. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(3, Duration.ofMillis(500), Duration.ofSeconds(30));

    /** One attempt: every error is thrown as it comes. */
    public static final RetryPolicy NONE = new RetryPolicy(1, Duration.ZERO, Duration.ZERO);

    public RetryPolicy {
        Objects.requireNonNull(firstDelay, "firstDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        if (firstDelay.isNegative() || maxDelay.isNegative()) {
            throw new IllegalArgumentException("delays must not be negative");
        }
    }

    /** The wait before attempt {@code attempt + 1} when the answer names none: doubling, with up to 25 % jitter. */
    Duration backoff(int attempt, double jitter) {
        long base = firstDelay.toMillis() << Math.min(attempt - 1, 20);
        long withJitter = base + (long) (base * 0.25 * jitter);
        return Duration.ofMillis(Math.min(withJitter, maxDelay.toMillis()));
    }

    /** The {@code Retry-After} of an answer, in seconds (the only form the platform sends). */
    static Optional<Duration> retryAfter(HttpHeaders headers) {
        return headers.firstValue("Retry-After").flatMap(value -> {
            try {
                return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(value.trim()))));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        });
    }
}
