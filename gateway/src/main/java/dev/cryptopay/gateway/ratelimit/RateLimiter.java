package dev.cryptopay.gateway.ratelimit;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import reactor.core.publisher.Mono;

/** Takes one request from a named bucket. Implementations: in memory (one instance) or Redis (shared). */
public interface RateLimiter {

    /**
     * @param bucketKey identifies the bucket (group and subject); never contains an API key
     * @param limit     requests per period
     * @param period    the fixed window
     * @return the decision, or an error when the bucket store is unreachable (the caller fails closed)
     */
    Mono<RateLimitDecision> tryConsume(String bucketKey, int limit, Duration period);

    /**
     * {@code limit} requests per window, refilled all at once when the window ends. Interval (not greedy) refill keeps
     * "N per minute" exact and makes {@code X-RateLimit-Reset} the time until the window restarts.
     */
    static BucketConfiguration configuration(int limit, Duration period) {
        return BucketConfiguration.builder()
                .addLimit(Bandwidth.builder()
                        .capacity(limit)
                        .refillIntervally(limit, period)
                        .build())
                .build();
    }

    static RateLimitDecision decision(ConsumptionProbe probe, int limit) {
        long reset = ceilSeconds(probe.getNanosToWaitForReset());
        long retryAfter = probe.isConsumed() ? 0 : Math.max(1, ceilSeconds(probe.getNanosToWaitForRefill()));
        return new RateLimitDecision(probe.isConsumed(), limit, probe.getRemainingTokens(), reset, retryAfter);
    }

    private static long ceilSeconds(long nanos) {
        return nanos <= 0 ? 0 : (nanos + 999_999_999L) / 1_000_000_000L;
    }
}
