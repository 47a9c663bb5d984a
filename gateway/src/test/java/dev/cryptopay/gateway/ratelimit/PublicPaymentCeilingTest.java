package dev.cryptopay.gateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.gateway.support.AdminClient;
import dev.cryptopay.gateway.support.GatewayInstance;
import dev.cryptopay.gateway.support.MerchantKey;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The per-key ceiling of the public payment call (3 per minute here) over the per-(key, client address) limit (2):
 * many client addresses together cannot exceed the ceiling, and a client over its own limit does not use it up.
 */
class PublicPaymentCeilingTest {

    private static GatewayInstance gateway;
    private static WebTestClient client;
    private static AdminClient admin;

    @BeforeAll
    static void start() {
        gateway = GatewayInstance.start(Map.of(
                "gateway.rate-limit.limits.public-link-payment", "2",
                "gateway.rate-limit.limits.public-link-payment-per-key", "3"));
        client = gateway.client();
        admin = gateway.admin();
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void allClientAddressesOfAKeyTogetherStopAtTheCeiling() {
        MerchantKey key = admin.newMerchantKey();
        String publishable = admin.newPublishableKey(key.merchantId(), Mode.TEST);
        pay("203.0.113.1", publishable).expectStatus().isOk().expectHeader().valueEquals("X-RateLimit-Limit", "2");
        pay("203.0.113.1", publishable).expectStatus().isOk();
        // Refused by the client's own limit: does not draw from the ceiling.
        pay("203.0.113.1", publishable)
                .expectStatus()
                .isEqualTo(429)
                .expectBody()
                .jsonPath("$.message")
                .value(message -> assertThat((String) message).contains("public_link_payment (2 requests"));
        pay("203.0.113.2", publishable).expectStatus().isOk();
        pay("203.0.113.3", publishable)
                .expectStatus()
                .isEqualTo(429)
                .expectHeader()
                .valueEquals("X-RateLimit-Limit", "3")
                .expectHeader()
                .exists(HttpHeaders.RETRY_AFTER)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("rate_limited")
                .jsonPath("$.message")
                .value(message -> assertThat((String) message).contains("public_link_payment_per_key"));
        // Another key of the same merchant has its own ceiling.
        pay("203.0.113.3", admin.newPublishableKey(key.merchantId(), Mode.TEST))
                .expectStatus()
                .isOk();
    }

    private static WebTestClient.ResponseSpec pay(String clientAddress, String merchantKey) {
        return client.post()
                .uri(gateway.baseUrl() + "/api/v1/public/subscriptions/link/payment")
                .header("X-Forwarded-For", clientAddress)
                .bodyValue("{\"merchant_key\":\"" + merchantKey + "\"}")
                .exchange();
    }
}
