package dev.cryptopay.testsupport.service;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.GatewayForwarding;
import dev.cryptopay.testsupport.InternalTestKeys;
import dev.cryptopay.testsupport.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The base of a {@link ServiceTest} class: the client, the clock (reset to the wall clock before each test), the
 * service's JSON mapper, and requests sent the way the gateway forwards them.
 */
public abstract class ServiceTestBase {

    private static final Duration AWAIT_LIMIT = Duration.ofSeconds(45);

    @Autowired
    protected WebTestClient web;

    @Autowired
    protected MutableClock clock;

    @Autowired
    protected JsonMapper json;

    @org.springframework.beans.factory.annotation.Value("${local.server.port}")
    private int port;

    /** The service under test's id: the audience of the tokens its requests carry. */
    @org.springframework.beans.factory.annotation.Value("${spring.application.name}")
    private String application;

    private GatewayForwarding forwarding;
    private GatewayForwarding chainWatcher;

    @BeforeEach
    void resetClock() {
        clock.set(Instant.ofEpochMilli(System.currentTimeMillis()));
    }

    /** A merchant no other test has seen, in test mode. */
    protected static MerchantIdentity newMerchant() {
        return new MerchantIdentity(UUID.randomUUID(), Mode.TEST);
    }

    /**
     * A request as the gateway forwards it for this merchant: identity headers and a fresh internal token of the
     * gateway over the request as sent, issued at the service's clock. A null merchant makes a call with no merchant
     * identity (a public route).
     */
    protected WebTestClient.RequestBodySpec as(MerchantIdentity merchant, HttpMethod method, String uri) {
        if (forwarding == null) {
            forwarding = new GatewayForwarding(application, clock);
        }
        return forwarding.as(web, merchant, method, uri);
    }

    /**
     * A call of the internal caller {@code chain-watcher} (its own secret, no merchant identity), as to the
     * transactions route of payment-links-service.
     */
    protected WebTestClient.RequestBodySpec asChainWatcher(HttpMethod method, String uri) {
        if (chainWatcher == null) {
            chainWatcher = new GatewayForwarding(InternalTestKeys.chainWatcher(), application, clock);
        }
        return chainWatcher.as(web, null, method, uri);
    }

    /**
     * As {@link #as(MerchantIdentity, HttpMethod, String)}, for a path and query sent exactly as encoded (e.g. with
     * {@code %00}), never expanded as a URI template.
     */
    protected WebTestClient.RequestBodySpec asEncoded(MerchantIdentity merchant, HttpMethod method, String rawUri) {
        if (forwarding == null) {
            forwarding = new GatewayForwarding(application, clock);
        }
        return forwarding.as(web, merchant, method, java.net.URI.create("http://127.0.0.1:" + port + rawUri));
    }

    /** The response body as a JSON tree. */
    protected JsonNode read(WebTestClient.ResponseSpec response) {
        return json.readTree(response.expectBody().returnResult().getResponseBody());
    }

    /** The service's Prometheus scrape ({@code /actuator/prometheus}), which must answer 200. */
    protected String prometheus() {
        return web.get()
                .uri("/actuator/prometheus")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
    }

    /** The value of the first series of {@code name} in a Prometheus scrape; fails when it is not exported. */
    protected static double metric(String prometheus, String name) {
        return prometheus
                .lines()
                .filter(line -> line.startsWith(name + " ") || line.startsWith(name + "{"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " not exported"));
    }

    /** Waits (polling every 50 ms, at most 45 s) until the condition holds. */
    protected static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + AWAIT_LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + AWAIT_LIMIT.toSeconds() + " s waiting for " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
