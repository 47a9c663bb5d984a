package dev.cryptopay.gateway.ratelimit;

import dev.cryptopay.gateway.redis.RedisConnector;
import io.github.bucket4j.distributed.AsyncBucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.AsyncProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * Buckets stored in Redis through bucket4j's compare-and-swap proxy, so every gateway instance draws from the same
 * bucket. Keys expire once the bucket would be full again, so Redis holds only active buckets.
 */
public class RedisRateLimiter implements RateLimiter {

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
                            .build(keyPrefix + bucketKey, () -> java.util.concurrent.CompletableFuture
                                    .completedFuture(RateLimiter.configuration(limit, period)));
                    return Mono.fromFuture(() -> bucket.tryConsumeAndReturnRemaining(1), true);
                })
                .timeout(timeout)
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
                            .expirationAfterWrite(ExpirationAfterWriteStrategy
                                    .basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                            .requestTimeout(timeout)
                            .build()
                            .asAsync();
                }
                return proxyManager;
            }
        });
    }
}
