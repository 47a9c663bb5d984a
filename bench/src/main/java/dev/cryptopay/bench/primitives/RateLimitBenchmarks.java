package dev.cryptopay.bench.primitives;

import dev.cryptopay.gateway.ratelimit.LocalRateLimiter;
import dev.cryptopay.gateway.ratelimit.RateLimitDecision;
import dev.cryptopay.gateway.ratelimit.RateLimiter;
import dev.cryptopay.gateway.ratelimit.RedisRateLimiter;
import dev.cryptopay.gateway.redis.GatewayRedisProperties;
import dev.cryptopay.gateway.redis.RedisConnector;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One rate-limit decision as the gateway takes it per request: in memory (one instance) or in Redis (instances
 * sharing buckets; one round trip to the Redis at {@code bench.redis.uri}, default {@code redis://127.0.0.1:6379}).
 * The limit is never reached, so every call consumes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RateLimitBenchmarks {

    static final Duration PERIOD = Duration.ofMinutes(1);

    @Param({"local", "redis"})
    public String store;

    RedisConnector redis;
    RateLimiter limiter;
    String bucket;

    @Setup
    public void setUp() {
        bucket = "bench:" + UUID.randomUUID();
        if (store.equals("redis")) {
            String uri = System.getProperty("bench.redis.uri", "redis://127.0.0.1:6379");
            String prefix = "bench:" + UUID.randomUUID() + ":";
            redis = new RedisConnector(new GatewayRedisProperties(true, uri, prefix, Duration.ofSeconds(2)));
            limiter = new RedisRateLimiter(redis, prefix, Duration.ofSeconds(2));
        } else {
            limiter = new LocalRateLimiter(PERIOD, 10_000);
        }
    }

    @TearDown
    public void tearDown() {
        if (redis != null) {
            redis.close();
        }
    }

    @Benchmark
    public RateLimitDecision consume() {
        return limiter.tryConsume(bucket, Integer.MAX_VALUE, PERIOD).block();
    }
}
