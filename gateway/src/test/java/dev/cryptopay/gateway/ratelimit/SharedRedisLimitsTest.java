package dev.cryptopay.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.gateway.ratelimit.RateLimitTest.Outcome;
import dev.cryptopay.gateway.support.GatewayInstance;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.web.reactive.function.client.WebClient;

/** Two gateway instances (separate contexts and ports) sharing the real Redis at 127.0.0.1:6379. */
class SharedRedisLimitsTest {

    private static GatewayInstance first;
    private static GatewayInstance second;

    @BeforeAll
    static void startTwoInstances() {
        // A fresh prefix per run, so buckets and replay entries of earlier runs never interfere.
        Map<String, String> redis = Map.of(
                "gateway.redis.enabled", "true",
                "gateway.redis.uri", "redis://127.0.0.1:6379",
                "gateway.redis.key-prefix", "gateway-test:" + UUID.randomUUID() + ":");
        first = GatewayInstance.start(redis);
        second = GatewayInstance.start(redis);
    }

    @AfterAll
    static void stop() {
        if (first != null) {
            first.close();
        }
        if (second != null) {
            second.close();
        }
    }

    @Test
    void instancesSharingRedisShareOneBucket() {
        assertThat(first.port()).isNotEqualTo(second.port());
        MerchantKey key = first.admin().newMerchantKey();
        WebClient web = WebClient.create();
        List<org.springframework.web.reactive.function.client.WebClient.RequestHeadersSpec<?>> requests =
                new ArrayList<>();
        for (int i = 0; i < 34; i++) {
            GatewayInstance target = i % 2 == 0 ? first : second;
            requests.add(SignedRequest.of("POST", "/payment_links")
                    .body("{\"n\":" + i + "}")
                    .prepare(web, target.baseUrl(), key));
        }
        List<Outcome> outcomes = RateLimitTest.fireConcurrently(requests);
        assertThat(outcomes.stream().filter(o -> o.status() == 200)).hasSize(10);
        assertThat(outcomes.stream().filter(o -> o.status() == 429)).hasSize(24);
        outcomes.stream().filter(o -> o.status() == 429).forEach(o -> {
            assertThat(o.headers().getFirst("Retry-After")).isNotBlank();
            assertThat(o.headers().getFirst("X-RateLimit-Limit")).isEqualTo("10");
            assertThat(o.headers().getFirst("X-RateLimit-Remaining")).isEqualTo("0");
        });
    }

    @Test
    void replayedSignatureIsRefusedByTheOtherInstance() {
        MerchantKey key = first.admin().newMerchantKey();
        SignedRequest request = SignedRequest.of("POST", "/payment_links").body("{\"once\":true}");
        request.send(first.client(), first.baseUrl(), key).expectStatus().isOk();
        request.send(second.client(), second.baseUrl(), key)
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("replayed_request");
    }

    @Test
    void keyRevokedOnOneInstanceIsRefusedByTheOtherWithinCacheTtl() throws InterruptedException {
        MerchantKey key = first.admin().newMerchantKey();
        SignedRequest.of("GET", "/account")
                .send(second.client(), second.baseUrl(), key)
                .expectStatus()
                .isOk();
        first.admin().revoke(key.apiKey());
        Thread.sleep(1100); // gateway.keys.cache-ttl is 1 s in the tests
        SignedRequest.of("GET", "/account")
                .send(second.client(), second.baseUrl(), key)
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("api_key_revoked");
    }
}
