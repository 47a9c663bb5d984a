package dev.cryptopay.gateway.routing;

import dev.cryptopay.gateway.support.GatewayInstance;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import dev.cryptopay.gateway.support.TestEnvironment;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** A service that is down answers 503, one that is too slow 504; both as problems, never a bare 500. */
class UpstreamFailureTest {

    private static GatewayInstance gateway;

    @BeforeAll
    static void start() {
        gateway = GatewayInstance.start(Map.of(
                "gateway.upstreams.subscriptions",
                "http://127.0.0.1:" + TestEnvironment.closedPort(),
                "gateway.upstreams.response-timeout",
                "1s"));
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    @Test
    void answers503ProblemWhenTheServiceRefusesConnections() {
        MerchantKey key = gateway.admin().newMerchantKey();
        SignedRequest.of("GET", "/subscriptions")
                .send(gateway.client(), gateway.baseUrl(), key)
                .expectStatus()
                .isEqualTo(503)
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("upstream_unavailable")
                .jsonPath("$.request_id")
                .isNotEmpty();
    }

    @Test
    void answers504ProblemWhenTheServiceIsTooSlow() {
        MerchantKey key = gateway.admin().newMerchantKey();
        // The echo server answers /slow after EchoServer.SLOW_MILLIS, longer than the 1 s response timeout.
        SignedRequest.of("GET", "/webhook-endpoints/slow")
                .send(gateway.client(), gateway.baseUrl(), key)
                .expectStatus()
                .isEqualTo(504)
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("upstream_timeout");
    }
}
