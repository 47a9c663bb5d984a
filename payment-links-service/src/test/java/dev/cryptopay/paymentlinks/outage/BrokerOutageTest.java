package dev.cryptopay.paymentlinks.outage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.GatewayForwarding;
import dev.cryptopay.testsupport.InternalTestKeys;
import dev.cryptopay.testsupport.KafkaBroker;
import dev.cryptopay.testsupport.KraftBroker;
import dev.cryptopay.testsupport.PostgresDatabaseExtension;
import dev.cryptopay.testsupport.TestKafka;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The broker goes away while merchants keep creating links: nothing is lost and publishing resumes by itself. */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"payment-links.expiry-sweep-enabled=false", "outbox.poll-interval=100ms", "outbox.send-timeout=3s"
        })
@AutoConfigureWebTestClient
@ActiveProfiles("test")
class BrokerOutageTest {

    private static final KraftBroker broker = TestKafka.startDedicated(0);

    @RegisterExtension
    static final PostgresDatabaseExtension postgres = new PostgresDatabaseExtension();

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        postgres.registerSpringProperties(registry);
        registry.add("spring.kafka.bootstrap-servers", () -> broker.bootstrapServers());
        InternalTestKeys.properties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Autowired
    WebTestClient web;

    @Autowired
    DatabaseClient database;

    @Test
    void eventsWrittenWhileTheBrokerIsDownArePublishedOnceItIsBack() throws Exception {
        MerchantIdentity merchant = new MerchantIdentity(UUID.randomUUID(), Mode.TEST);
        String before = create(merchant, "before");
        awaitOutboxDrained(Duration.ofSeconds(30));

        broker.stop();
        List<String> createdWhileDown = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            createdWhileDown.add(create(merchant, "during-" + i));
        }
        Thread.sleep(1500);
        assertThat(unpublished())
                .as("rows wait in the outbox while Kafka is down")
                .isEqualTo(10);

        broker.restart();
        awaitOutboxDrained(Duration.ofSeconds(60));

        List<String> expected = new ArrayList<>(List.of(before));
        expected.addAll(createdWhileDown);
        List<String> published = aggregateIdsOn(broker, merchant, expected.size());
        // Delivery is at least once: a send that timed out during the outage may also have been written, so compare
        // first occurrences. Nothing may be missing and the merchant's order must hold.
        assertThat(published.stream().distinct().toList())
                .as("every event, in order, the one from before the outage included")
                .containsExactlyElementsOf(expected);
    }

    private String create(MerchantIdentity merchant, String name) {
        byte[] body = new GatewayForwarding(InternalCallers.PAYMENT_LINKS_SERVICE, Clock.systemUTC())
                .as(web, merchant, HttpMethod.POST, "/payment_links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"payment_name\":\"" + name + "\",\"amount\":1,\"currency\":\"USDC\"}")
                .exchange()
                .expectStatus()
                .isCreated()
                .expectBody()
                .returnResult()
                .getResponseBody();
        String text = new String(body, java.nio.charset.StandardCharsets.UTF_8);
        int start = text.indexOf("\"id\":\"") + 6;
        return text.substring(start, text.indexOf('"', start));
    }

    private long unpublished() {
        return database.sql("SELECT count(*) FROM outbox_event WHERE published_at IS NULL")
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
    }

    private void awaitOutboxDrained(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (unpublished() > 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(unpublished() + " outbox rows still unpublished after " + timeout);
            }
            Thread.sleep(100);
        }
    }

    private static List<String> aggregateIdsOn(KafkaBroker broker, MerchantIdentity merchant, int expected) {
        List<String> ids = new ArrayList<>();
        try (var consumer = new KafkaConsumer<String, String>(
                Map.of(
                        "bootstrap.servers",
                        broker.bootstrapServers(),
                        "group.id",
                        "outage-" + UUID.randomUUID(),
                        "auto.offset.reset",
                        "earliest"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of("payment-links.events"));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (ids.stream().distinct().count() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.key().equals(merchant.merchantId().toString())) {
                        ids.add(new String(
                                record.headers().lastHeader("aggregate-id").value(),
                                java.nio.charset.StandardCharsets.UTF_8));
                    }
                }
            }
        }
        return ids;
    }
}
