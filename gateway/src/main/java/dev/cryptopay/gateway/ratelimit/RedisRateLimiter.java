package dev.cryptopay.gateway.ratelimit;

import dev.cryptopay.gateway.redis.RedisConnector;
import io.github.bucket4j.distributed.AsyncBucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.AsyncProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import reactor.core.publisher.Mono;

/**
 * Buckets stored in Redis through bucket4j's compare-and-swap proxy, so every gateway instance draws from the same
 * bucket. Keys expire once the bucket would be full again, so Redis holds only active buckets.
 *
 * <p>{@code timeout} bounds each Redis command. A decision may take several commands (compare-and-swap retries when
 * many requests of one key race), so the whole decision is bounded by {@value #DECISION_TIMEOUT_FACTOR} times that;
 * bounding it by one command's timeout would turn a burst on one key into 503s.
 */
public class RedisRateLimiter implements RateLimiter {

    static final int DECISION_TIMEOUT_FACTOR = 10;

    private final RedisConnector redis;
    private final String keyPrefix;
    private final Duration timeout;
    private volatile AsyncProxyManager<String> proxyManager;

    public RedisRateLimiter(RedisConnector redis, String keyPrefix, Duration timeout) {
        this.redis = redis;
        this.keyPrefix = keyPrefix;
        this.timeout = timeout;
    }

    @Override
    public Mono<RateLimitDecision> tryConsume(String bucketKey, int limit, Duration period) {
        return proxyManager()
                .flatMap(manager -> {
                    AsyncBucketProxy bucket = manager.builder()
                            .build(
                                    keyPrefix + bucketKey,
                                    () -> CompletableFuture.completedFuture(RateLimiter.configuration(limit, period)));
                    return Mono.fromFuture(() -> bucket.tryConsumeAndReturnRemaining(1), true);
                })
                .timeout(timeout.multipliedBy(DECISION_TIMEOUT_FACTOR))
                .map(probe -> RateLimiter.decision(probe, limit));
    }

    private Mono<AsyncProxyManager<String>> proxyManager() {
        AsyncProxyManager<String> current = proxyManager;
        if (current != null) {
            return Mono.just(current);
        }
        return redis.bytesConnection().map(connection -> {
            synchronized (this) {
                if (proxyManager == null) {
                    proxyManager = Bucket4jLettuce.casBasedBuilder(connection)
                            .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(
                                    Duration.ofSeconds(10)))
                            .requestTimeout(timeout)
                            .build()
                            .asAsync();
                }
                return proxyManager;
            }
        });
    }
}
