package dev.cryptopay.gateway.ratelimit;

import dev.cryptopay.gateway.redis.RedisConnector;
import io.lettuce.core.ScriptOutputType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * Fixed windows counted in Redis, so every gateway instance draws from the same bucket. One Lua script per decision,
 * which Redis runs atomically: count the request ({@code INCR}), start the window's clock on its first request
 * ({@code PEXPIRE}), and read how long the window has left ({@code PTTL}). A burst of any size on one key therefore
 * admits exactly {@code limit} requests and refuses the rest with a wait time, whatever the contention: no
 * compare-and-swap, no retries, one round trip bounded by {@code timeout}. (bucket4j's compare-and-swap proxy, used
 * before, retried under contention and answered 503 when its retries ran out of time on a busy machine.) A key
 * expires with its window, so Redis holds only active buckets.
 */
public class RedisRateLimiter implements RateLimiter {

    /** KEYS[1] the bucket, ARGV[1] the window in milliseconds; answers {count in this window, window left in ms}. */
    static final String WINDOW_SCRIPT = """
            local count = redis.call('INCR', KEYS[1])
            if count == 1 then
              redis.call('PEXPIRE', KEYS[1], ARGV[1])
            end
            local left = redis.call('PTTL', KEYS[1])
            if left < 0 then
              redis.call('PEXPIRE', KEYS[1], ARGV[1])
              left = tonumber(ARGV[1])
            end
            return {count, left}
            """;

    private final RedisConnector redis;
    private final String keyPrefix;
    private final Duration timeout;

    public RedisRateLimiter(RedisConnector redis, String keyPrefix, Duration timeout) {
        this.redis = redis;
        this.keyPrefix = keyPrefix;
        this.timeout = timeout;
    }

    @Override
    public Mono<RateLimitDecision> tryConsume(String bucketKey, int limit, Duration period) {
        byte[] windowMillis = Long.toString(period.toMillis()).getBytes(StandardCharsets.US_ASCII);
        return redis.bytesConnection()
                .flatMap(connection -> connection
                        .reactive()
                        .<List<Long>>eval(
                                WINDOW_SCRIPT,
                                ScriptOutputType.MULTI,
                                new String[] {keyPrefix + bucketKey},
                                windowMillis)
                        .next())
                .timeout(timeout)
                .map(counted -> decision(counted.get(0), counted.get(1), limit));
    }

    static RateLimitDecision decision(long count, long windowLeftMillis, int limit) {
        boolean allowed = count <= limit;
        long reset = Math.max(1, (windowLeftMillis + 999) / 1000);
        return new RateLimitDecision(allowed, limit, Math.max(0, limit - count), reset, allowed ? 0 : reset);
    }
}
