package dev.cryptopay.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

class RateLimitTest extends GatewayTestBase {

    @Autowired
    MeterRegistry meters;

    /** Status and headers of one response. */
    record Outcome(int status, HttpHeaders headers) {}

    /** Fires all requests at once (up to 64 in flight) and collects what came back. */
    static List<Outcome> fireConcurrently(List<WebClient.RequestHeadersSpec<?>> requests) {
        return Flux.fromIterable(requests)
                .flatMap(
                        request -> request.exchangeToMono(response -> response.releaseBody()
                                .then(Mono.just(new Outcome(
                                        response.statusCode().value(),
                                        response.headers().asHttpHeaders())))),
                        64)
                .collectList()
                .block(Duration.ofSeconds(60));
    }

    @Test
    void allowsExactlyTheLimitOfConcurrentRequests() {
        MerchantKey key = admin.newMerchantKey();
        WebClient web = WebClient.create();
        List<WebClient.RequestHeadersSpec<?>> requests = new ArrayList<>();
        for (int i = 0; i < 35; i++) {
            // Distinct bodies, so no request is a replay of another.
            requests.add(SignedRequest.of("POST", "/payment_links")
                    .body("{\"n\":" + i + "}")
                    .prepare(web, baseUrl(), key));
        }
        double rejectedBefore = meters.counter("gateway.ratelimit.rejected", "group", "payment_links_write")
                .count();
        List<Outcome> outcomes = fireConcurrently(requests);
        assertThat(outcomes).hasSize(35);
        assertThat(outcomes.stream().filter(o -> o.status() == 200)).hasSize(10);
        assertThat(outcomes.stream().filter(o -> o.status() == 429)).hasSize(25);
        for (Outcome outcome : outcomes) {
            assertThat(outcome.headers().getFirst("X-RateLimit-Limit")).isEqualTo("10");
            assertThat(Long.parseLong(outcome.headers().getFirst("X-RateLimit-Remaining")))
                    .isBetween(0L, 9L);
            assertThat(Long.parseLong(outcome.headers().getFirst("X-RateLimit-Reset")))
                    .isBetween(1L, 60L);
            if (outcome.status() == 429) {
                assertThat(Long.parseLong(outcome.headers().getFirst(HttpHeaders.RETRY_AFTER)))
                        .isBetween(1L, 60L);
                assertThat(outcome.headers().getFirst("X-RateLimit-Remaining")).isEqualTo("0");
            }
        }
        assertThat(meters.counter("gateway.ratelimit.rejected", "group", "payment_links_write")
                        .count())
                .isEqualTo(rejectedBefore + 25);
    }

    @Test
    void rateLimitedResponseIsAProblem() {
        MerchantKey key = admin.newMerchantKey();
        for (int i = 0; i < 10; i++) {
            SignedRequest.of("DELETE", "/payment_links/pl_" + i)
                    .send(client, baseUrl(), key)
                    .expectStatus()
                    .isOk();
        }
        SignedRequest.of("DELETE", "/payment_links/pl_x")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isEqualTo(429)
                .expectHeader()
                .exists(HttpHeaders.RETRY_AFTER)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("rate_limited")
                .jsonPath("$.status")
                .isEqualTo(429);
    }

    @Test
    void keepsSeparateBucketsPerKeyAndRouteGroup() {
        MerchantKey first = admin.newMerchantKey();
        MerchantKey second = admin.newMerchantKey();
        for (int i = 0; i < 10; i++) {
            SignedRequest.of("POST", "/payment_links")
                    .body("{\"i\":" + i + "}")
                    .send(client, baseUrl(), first)
                    .expectStatus()
                    .isOk();
        }
        SignedRequest.of("POST", "/payment_links")
                .body("{\"i\":99}")
                .send(client, baseUrl(), first)
                .expectStatus()
                .isEqualTo(429);
        // Another key of another merchant is untouched, and so are the first key's other groups.
        SignedRequest.of("POST", "/payment_links")
                .body("{\"i\":99}")
                .send(client, baseUrl(), second)
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-RateLimit-Remaining", "9");
        SignedRequest.of("GET", "/payment_links")
                .send(client, baseUrl(), first)
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-RateLimit-Limit", "30")
                .expectHeader()
                .valueEquals("X-RateLimit-Remaining", "29");
    }

    @Test
    void limitsPublicRoutesPerClientIp() {
        WebClient web = WebClient.create();
        List<WebClient.RequestHeadersSpec<?>> requests = new ArrayList<>();
        for (int i = 0; i < 140; i++) {
            requests.add(
                    web.get().uri(baseUrl() + "/api/v1/public/plans/p" + i).header("X-Forwarded-For", "203.0.113.50"));
        }
        List<Outcome> outcomes = fireConcurrently(requests);
        assertThat(outcomes.stream().filter(o -> o.status() == 200)).hasSize(120);
        assertThat(outcomes.stream().filter(o -> o.status() == 429)).hasSize(20);
        // A different client address has its own bucket.
        client.get()
                .uri(baseUrl() + "/api/v1/public/plans/p1")
                .header("X-Forwarded-For", "203.0.113.51")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-RateLimit-Remaining", "119");
    }

    @Test
    void countsTheCheckoutPerClientIpInItsOwnBucket() {
        for (int remaining = 299; remaining >= 298; remaining--) {
            client.get()
                    .uri(baseUrl() + "/checkout/payment_link?payment_id=p" + remaining)
                    .header("X-Forwarded-For", "203.0.113.60")
                    .exchange()
                    .expectStatus()
                    .isOk()
                    .expectHeader()
                    .valueEquals("X-RateLimit-Limit", "300")
                    .expectHeader()
                    .valueEquals("X-RateLimit-Remaining", String.valueOf(remaining));
        }
        client.get()
                .uri(baseUrl() + "/api/v1/public/plans/p1")
                .header("X-Forwarded-For", "203.0.113.60")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-RateLimit-Limit", "120")
                .expectHeader()
                .valueEquals("X-RateLimit-Remaining", "119");
    }

    @Test
    void limitsPublicPaymentPerMerchantKeyAndClientAddress() {
        MerchantKey key = admin.newMerchantKey();
        String publishable = admin.newPublishableKey(key.merchantId(), Mode.TEST);
        for (int i = 0; i < 10; i++) {
            payFrom("192.0.2.10", publishable, i).expectStatus().isOk();
        }
        // Customer A has used up its own budget…
        payFrom("192.0.2.10", publishable, 10)
                .expectStatus()
                .isEqualTo(429)
                .expectHeader()
                .exists(HttpHeaders.RETRY_AFTER)
                .expectHeader()
                .valueEquals("X-RateLimit-Limit", "10")
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("rate_limited");
        // …customer B of the same merchant, with the same key, is still admitted with a full bucket.
        payFrom("192.0.2.11", publishable, 11)
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-RateLimit-Remaining", "9");
        // The secret API key in merchant_key (still accepted) is counted the same way, in its own buckets.
        payFrom("192.0.2.10", key.apiKey(), 12).expectStatus().isOk();
    }

    private WebTestClient.ResponseSpec payFrom(String clientAddress, String merchantKey, int n) {
        return client.post()
                .uri(baseUrl() + "/api/v1/public/subscriptions/link/payment")
                .header("X-Forwarded-For", clientAddress)
                .bodyValue("{\"merchant_key\":\"" + merchantKey + "\",\"n\":" + n + "}")
                .exchange();
    }
}
