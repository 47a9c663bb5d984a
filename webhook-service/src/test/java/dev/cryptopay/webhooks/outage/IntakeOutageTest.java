package dev.cryptopay.webhooks.outage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.RestartablePostgres;
import dev.cryptopay.testsupport.TestKafka;
import dev.cryptopay.webhooks.WebhookTestBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The service's own PostgreSQL (a real server, started here so it can be stopped) goes away while events keep
 * arriving on Kafka. Intake takes each poll in one transaction and commits its offsets only after it: while the
 * database is down the same records are handed over again and again, and once it is back every event is stored once
 * with one delivery per subscribed endpoint — none skipped, none doubled — and the invalid record among them parked.
 * Its own topic and consumer group keep the other test classes' consumers out.
 */
class IntakeOutageTest extends WebhookTestBase {

    private static final String TOPIC = "intake-outage.events";
    private static final RestartablePostgres postgres = RestartablePostgres.start();

    @DynamicPropertySource
    static void ownDatabase(DynamicPropertyRegistry registry) {
        postgres.registerSpringProperties(registry, "webhooks_outage");
        registry.add("webhooks.topic-pattern", () -> "intake-outage\\.events");
        registry.add("webhooks.consumer-group", () -> "intake-outage");
    }

    @AfterAll
    static void stopPostgres() {
        postgres.close();
    }

    @Test
    void eventsThatArriveWhileTheDatabaseIsDownAreAllStoredOnceItIsBack() throws Exception {
        MerchantIdentity merchant = newMerchant();
        register(merchant, "http://127.0.0.1:9/a", List.of("payment.created"));
        register(merchant, "http://127.0.0.1:9/b", List.of("payment.created", "payment.failed"));
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(publish(TOPIC, merchant, "payment.created", Map.of("n", i)));
        }
        await("the first events stored", () -> deliveriesOfMerchant(merchant) == 40);

        postgres.stop();
        for (int i = 20; i < 220; i++) {
            ids.add(publish(TOPIC, merchant, i % 2 == 0 ? "payment.created" : "payment.failed", Map.of("n", i)));
        }
        republish(merchant, ids.get(3), "payment.created"); // stored before the outage
        republish(merchant, ids.get(100), "payment.created"); // a duplicate among the unstored ones
        TestKafka.send(TOPIC, merchant.merchantId().toString(), "{\"not\":\"an event\"}");
        Thread.sleep(3_000); // intake fails and backs off meanwhile
        postgres.startAgain();

        // 20 before (2 endpoints each), then 100 payment.created (2 each) and 100 payment.failed (endpoint b only).
        await("every event stored after the outage", () -> deliveriesOfMerchant(merchant) == 40 + 200 + 100);
        for (String id : List.of(ids.get(0), ids.get(3), ids.get(100), ids.get(219))) {
            assertThat(eventStored(id)).as("event %s stored", id).isTrue();
        }
        assertThat(count("SELECT count(*) FROM webhook_event WHERE merchant_id = :merchant", merchant))
                .isEqualTo(220);
        assertThat(count(
                        "SELECT count(*) FROM (SELECT event_id, endpoint_id FROM webhook_delivery "
                                + "WHERE merchant_id = :merchant GROUP BY 1, 2 HAVING count(*) > 1) doubled",
                        merchant))
                .as("no event delivered twice to one endpoint")
                .isZero();
        assertThat(database.sql("SELECT count(*) FROM parked_record WHERE topic = :topic")
                        .bind("topic", TOPIC)
                        .map(row -> row.get(0, Long.class))
                        .one()
                        .block())
                .isEqualTo(1);
    }

    private void republish(MerchantIdentity merchant, String id, String type) {
        TestKafka.send(
                TOPIC,
                merchant.merchantId().toString(),
                json.writeValueAsString(Map.of(
                        "id", id,
                        "type", type,
                        "created_at", clock.instant().toString(),
                        "merchant_id", merchant.merchantId().toString(),
                        "mode", merchant.mode().wireName(),
                        "data", Map.of("again", true))));
    }
}
