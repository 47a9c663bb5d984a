package dev.cryptopay.paymentlinks;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.GatewayForwarding;
import dev.cryptopay.testsupport.MutableClock;
import dev.cryptopay.testsupport.PostgresDatabaseExtension;
import dev.cryptopay.testsupport.TestKafka;
import dev.cryptopay.testsupport.TestPostgres;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One running service for all route tests: a real PostgreSQL database shared by the test JVM, the shared Kafka
 * broker, and a clock the tests move. Tests stay independent by acting as fresh merchants.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "payment-links.expiry-sweep-enabled=false",
            "payment-links.checkout-url=https://pay.test",
            "outbox.poll-interval=50ms"
        })
@AutoConfigureWebTestClient
@ActiveProfiles("test")
@Import(PaymentLinksTestBase.ClockConfiguration.class)
public abstract class PaymentLinksTestBase {

    static final String INTERNAL_SECRET = "payment-links-test-secret-of-32-bytes-or-more";

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        PostgresDatabaseExtension.register(registry, () -> TestPostgres.sharedDatabase("payment_links"));
        TestKafka.registerSpringProperties(registry);
        registry.add("internal-auth.secret", () -> INTERNAL_SECRET);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class ClockConfiguration {

        @Bean
        MutableClock clock() {
            return MutableClock.startingNow();
        }
    }

    @Autowired
    protected WebTestClient web;

    @Autowired
    protected MutableClock clock;

    @Autowired
    protected JsonMapper json;

    @BeforeEach
    void resetClock() {
        clock.set(Instant.ofEpochMilli(System.currentTimeMillis()));
    }

    protected static MerchantIdentity newMerchant() {
        return new MerchantIdentity(UUID.randomUUID(), Mode.TEST);
    }

    /** A request as the gateway forwards it for this merchant (identity headers + a fresh internal token). */
    protected WebTestClient.RequestBodySpec as(MerchantIdentity merchant, HttpMethod method, String uri) {
        return new GatewayForwarding(INTERNAL_SECRET, clock).as(web, merchant, method, uri);
    }

    protected WebTestClient.ResponseSpec create(MerchantIdentity merchant, String body) {
        return as(merchant, HttpMethod.POST, "/payment_links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    /** Creates a link and answers its {@code data} object. */
    protected JsonNode createOk(MerchantIdentity merchant, String body) {
        return read(create(merchant, body).expectStatus().isCreated()).get("data");
    }

    protected JsonNode createOk(MerchantIdentity merchant, Map<String, Object> body) {
        return createOk(merchant, json.writeValueAsString(body));
    }

    protected WebTestClient.ResponseSpec get(MerchantIdentity merchant, String uri) {
        return as(merchant, HttpMethod.GET, uri).exchange();
    }

    protected WebTestClient.ResponseSpec delete(MerchantIdentity merchant, String uri) {
        return as(merchant, HttpMethod.DELETE, uri).exchange();
    }

    /** Reports a transaction through the internal route, as a chain watcher does (no merchant identity). */
    protected WebTestClient.ResponseSpec reportTransaction(String linkId, String body) {
        return as(null, HttpMethod.POST, "/internal/payment_links/" + linkId + "/transactions")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    protected JsonNode read(WebTestClient.ResponseSpec response) {
        byte[] body = response.expectBody().returnResult().getResponseBody();
        return json.readTree(body);
    }
}
