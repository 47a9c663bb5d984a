package dev.cryptopay.gateway.ratelimit;

import dev.cryptopay.gateway.support.GatewayInstance;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import dev.cryptopay.gateway.support.TestEnvironment;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** With Redis enabled but unreachable, limited routes are refused with 503 instead of running unlimited. */
class RedisFailClosedTest {

    private static GatewayInstance gateway;

    @BeforeAll
    static void start() {
        gateway = GatewayInstance.start(Map.of(
                "gateway.redis.enabled", "true",
                "gateway.redis.uri", "redis://127.0.0.1:" + TestEnvironment.closedPort(),
                "gateway.redis.timeout", "300ms"));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void answers503WhenRedisIsUnreachable() {
        MerchantKey key = gateway.admin().newMerchantKey();
        SignedRequest.of("GET", "/payment_links")
                .send(gateway.client(), gateway.baseUrl(), key)
                .expectStatus()
                .isEqualTo(503)
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("rate_limiter_unavailable");
        gateway.client()
                .get()
                .uri("/api/v1/public/plans")
                .exchange()
                .expectStatus()
                .isEqualTo(503)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("rate_limiter_unavailable");
    }
}
