package dev.cryptopay.gateway.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * Buckets kept in this instance's memory. Idle buckets are dropped after two windows (a dropped bucket is full
 * anyway), and at most {@code maxBuckets} are kept.
 */
public class LocalRateLimiter implements RateLimiter {

    private final Cache<String, Bucket> buckets;

    public LocalRateLimiter(Duration period, long maxBuckets) {
        this.buckets = Caffeine.newBuilder()
                .expireAfterAccess(period.multipliedBy(2))
                .maximumSize(maxBuckets)
                .build();
    }

    @Override
    public Mono<RateLimitDecision> tryConsume(String bucketKey, int limit, Duration period) {
        return Mono.fromSupplier(() -> {
            Bucket bucket = buckets.get(
                    bucketKey,
                    key -> Bucket.builder()
                            .addLimit(RateLimiter.configuration(limit, period).getBandwidths()[0])
                            .build());
            return RateLimiter.decision(bucket.tryConsumeAndReturnRemaining(1), limit);
        });
    }
}
