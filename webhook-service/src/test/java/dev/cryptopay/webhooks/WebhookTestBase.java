package dev.cryptopay.webhooks;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.GatewayForwarding;
import dev.cryptopay.testsupport.MutableClock;
import dev.cryptopay.testsupport.PostgresDatabaseExtension;
import dev.cryptopay.testsupport.TestKafka;
import dev.cryptopay.testsupport.TestPostgres;
import dev.cryptopay.webhooks.delivery.DeliveryScheduler;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The running webhook service with a real database, the shared Kafka broker (the intake consumer runs for real) and
 * a clock the tests move. The delivery loop is off: tests call {@link DeliveryScheduler#drain()} at the moments
 * they choose, which is how the retry schedule is tested without waiting.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "webhooks.delivery.enabled=false",
            "webhooks.delivery.jitter=0",
            "webhooks.delivery.allow-private-addresses=true",
            "webhooks.delivery.timeout=5s",
            "webhooks.secret-encryption-key=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
            "spring.kafka.consumer.properties.metadata.max.age.ms=1000"
        })
@AutoConfigureWebTestClient
@ActiveProfiles("test")
@Import(WebhookTestBase.ClockConfiguration.class)
public abstract class WebhookTestBase {

    static final String INTERNAL_SECRET = "webhook-service-test-secret-of-32-bytes-or-more";

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        PostgresDatabaseExtension.register(registry, () -> TestPostgres.sharedDatabase("webhooks"));
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

    @Autowired
    protected DeliveryScheduler scheduler;

    @Autowired
    protected DatabaseClient database;

    @BeforeEach
    void resetClock() {
        clock.set(Instant.ofEpochMilli(System.currentTimeMillis()));
    }

    protected static MerchantIdentity newMerchant() {
        return new MerchantIdentity(UUID.randomUUID(), Mode.TEST);
    }

    protected WebTestClient.RequestBodySpec as(MerchantIdentity merchant, HttpMethod method, String uri) {
        return new GatewayForwarding(INTERNAL_SECRET, clock).as(web, merchant, method, uri);
    }

    protected JsonNode read(WebTestClient.ResponseSpec response) {
        return json.readTree(response.expectBody().returnResult().getResponseBody());
    }

    /** Registers an endpoint and answers its data (including the one-time secret). */
    protected JsonNode register(MerchantIdentity merchant, String url, List<String> events) {
        return read(as(merchant, HttpMethod.POST, "/webhook-endpoints")
                        .contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(json.writeValueAsString(Map.of("url", url, "events", events, "description", "test")))
                        .exchange()
                        .expectStatus()
                        .isCreated())
                .get("data");
    }

    /** Publishes an event envelope to a real topic, as a producing service's outbox relay does. */
    protected String publish(String topic, MerchantIdentity merchant, String type, Map<String, Object> data) {
        String id = UUID.randomUUID().toString();
        publishRaw(
                topic,
                merchant.merchantId().toString(),
                json.writeValueAsString(Map.of(
                        "id",
                        id,
                        "type",
                        type,
                        "created_at",
                        clock.instant().toString(),
                        "merchant_id",
                        merchant.merchantId().toString(),
                        "mode",
                        merchant.mode().wireName(),
                        "data",
                        data)));
        return id;
    }

    protected static void publishRaw(String topic, String key, String value) {
        try (var producer = new KafkaProducer<String, String>(
                Map.of("bootstrap.servers", TestKafka.shared().bootstrapServers(), "acks", "all"),
                new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (Exception e) {
            throw new AssertionError("publishing to " + topic + " failed", e);
        }
    }

    protected long deliveriesOfEvent(String eventId) {
        return database.sql("SELECT count(*) FROM webhook_delivery WHERE event_id = :id")
                .bind("id", UUID.fromString(eventId))
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
    }

    protected boolean eventStored(String eventId) {
        return database.sql("SELECT count(*) FROM webhook_event WHERE id = :id")
                        .bind("id", UUID.fromString(eventId))
                        .map(row -> row.get(0, Long.class))
                        .one()
                        .block()
                == 1;
    }

    protected static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    protected static String hmacHex(String secret, byte[] data) {
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return java.util.HexFormat.of().formatHex(mac.doFinal(data));
        } catch (java.security.GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }
}
