package dev.cryptopay.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.gateway.redis.GatewayRedisProperties;
import dev.cryptopay.gateway.redis.RedisConnector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The shared limiter against the real Redis at 127.0.0.1:6379: two limiters (as two gateway instances) on one key,
 * a burst fired while every core is kept busy, exactly the limit admitted and the rest refused with a wait — never an
 * error.
 */
class RedisRateLimiterTest {

    private final String prefix = "limiter-test:" + UUID.randomUUID() + ":";
    private RedisConnector firstConnection;
    private RedisConnector secondConnection;

    @BeforeEach
    void connect() {
        firstConnection = new RedisConnector(new GatewayRedisProperties(true, null, prefix, null));
        secondConnection = new RedisConnector(new GatewayRedisProperties(true, null, prefix, null));
    }

    @AfterEach
    void close() {
        firstConnection.close();
        secondConnection.close();
    }

    @Test
    void aCpuStarvedBurstFromTwoInstancesAdmitsExactlyTheLimit() throws InterruptedException {
        List<RateLimiter> limiters = List.of(
                new RedisRateLimiter(firstConnection, prefix, Duration.ofMillis(500)),
                new RedisRateLimiter(secondConnection, prefix, Duration.ofMillis(500)));
        AtomicBoolean starving = new AtomicBoolean(true);
        List<Thread> burners = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors() * 2; i++) {
            Thread burner = new Thread(() -> {
                long spin = 0;
                while (starving.get()) {
                    spin++;
                }
                assertThat(spin).isNotNegative();
            });
            burner.start();
            burners.add(burner);
        }
        List<RateLimitDecision> decisions;
        try {
            decisions = Flux.range(0, 100)
                    .flatMap(
                            i -> limiters.get(i % 2).tryConsume("payment_links_write:key-1", 10, Duration.ofMinutes(1)),
                            100)
                    .collectList()
                    .block(Duration.ofSeconds(60));
        } finally {
            starving.set(false);
            for (Thread burner : burners) {
                burner.join();
            }
        }

        assertThat(decisions).hasSize(100);
        assertThat(decisions.stream().filter(RateLimitDecision::allowed)).hasSize(10);
        assertThat(decisions.stream().filter(decision -> !decision.allowed()))
                .hasSize(90)
                .allSatisfy(refused -> {
                    assertThat(refused.remaining()).isZero();
                    assertThat(refused.retryAfterSeconds()).isBetween(1L, 60L);
                });
        assertThat(decisions.stream().filter(RateLimitDecision::allowed).map(RateLimitDecision::remaining))
                .containsExactlyInAnyOrder(9L, 8L, 7L, 6L, 5L, 4L, 3L, 2L, 1L, 0L);
    }

    @Test
    void theWindowStartsWithItsFirstRequestAndRefillsWhenItEnds() throws InterruptedException {
        RateLimiter limiter = new RedisRateLimiter(firstConnection, prefix, Duration.ofMillis(500));
        Duration window = Duration.ofMillis(800);
        assertThat(consume(limiter, window).allowed()).isTrue();
        assertThat(consume(limiter, window).allowed()).isTrue();
        RateLimitDecision refused = consume(limiter, window);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.resetSeconds()).isEqualTo(1);

        Thread.sleep(window.toMillis() + 200);

        RateLimitDecision again = consume(limiter, window);
        assertThat(again.allowed()).isTrue();
        assertThat(again.remaining()).isEqualTo(1);
        assertThat(limiter.tryConsume("another-key", 2, window).block().remaining())
                .isEqualTo(1);
    }

    @Test
    void anUnreachableRedisIsAnErrorTheFilterTurnsInto503() {
        try (RedisConnector nowhere = new RedisConnector(
                new GatewayRedisProperties(true, "redis://127.0.0.1:1", prefix, Duration.ofMillis(300)))) {
            RateLimiter limiter = new RedisRateLimiter(nowhere, prefix, Duration.ofMillis(300));
            assertThat(limiter.tryConsume("k", 1, Duration.ofMinutes(1))
                            .map(decision -> "decided")
                            .onErrorResume(error -> Mono.just("error"))
                            .block(Duration.ofSeconds(10)))
                    .isEqualTo("error");
        }
    }

    private static RateLimitDecision consume(RateLimiter limiter, Duration window) {
        return limiter.tryConsume("window-key", 2, window).block(Duration.ofSeconds(5));
    }
}
