package dev.cryptopay.webhooks;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.TestKafka;
import dev.cryptopay.testsupport.service.ServiceTest;
import dev.cryptopay.testsupport.service.ServiceTestBase;
import dev.cryptopay.webhooks.delivery.DeliveryScheduler;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import tools.jackson.databind.JsonNode;

/**
 * The running webhook service (see {@link ServiceTest}); the intake consumer runs for real on the shared broker. The
 * delivery loop is off: tests call {@link DeliveryScheduler#drain()} at the moments they choose, which is how the
 * retry schedule is tested without waiting.
 */
@ServiceTest(
        database = "webhooks",
        properties = {
            "webhooks.delivery.enabled=false",
            "webhooks.delivery.jitter=0",
            "webhooks.delivery.allow-private-addresses=true",
            "webhooks.delivery.timeout=5s",
            "webhooks.delivery.recover-batch=2",
            "webhooks.endpoints.disable-min-failures=3",
            "webhooks.secret-encryption-key=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
            "spring.kafka.consumer.properties.metadata.max.age.ms=1000"
        })
public abstract class WebhookTestBase extends ServiceTestBase {

    @Autowired
    protected DeliveryScheduler scheduler;

    @Autowired
    protected DatabaseClient database;

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
        TestKafka.send(topic, key, value);
    }

    /** Publishes {@code count} events of one type for the merchant and waits until intake made every delivery. */
    protected void publishEvents(MerchantIdentity merchant, String type, int count, long deliveriesExpected) {
        for (int i = 0; i < count; i++) {
            publish("payment-links.events", merchant, type, Map.of("n", i));
        }
        await(deliveriesExpected + " deliveries", () -> deliveriesOfMerchant(merchant) == deliveriesExpected);
    }

    /** The single count a query answers, with {@code :merchant} bound to the merchant's id. */
    protected long count(String sql, MerchantIdentity merchant) {
        return database.sql(sql)
                .bind("merchant", merchant.merchantId())
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
    }

    protected long deliveriesOfMerchant(MerchantIdentity merchant) {
        return database.sql("SELECT count(*) FROM webhook_delivery WHERE merchant_id = :merchant")
                .bind("merchant", merchant.merchantId())
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
    }

    protected long deliveriesOfEvent(String eventId) {
        return database.sql("SELECT count(*) FROM webhook_delivery WHERE event_id = :id")
                .bind("id", UUID.fromString(eventId))
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
    }

    /** A delivery's status: {@code pending}, {@code succeeded} or {@code failed}. */
    protected String deliveryStatus(UUID delivery) {
        return database.sql("SELECT status FROM webhook_delivery WHERE id = :id")
                .bind("id", delivery)
                .map(row -> row.get(0, String.class))
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
}
