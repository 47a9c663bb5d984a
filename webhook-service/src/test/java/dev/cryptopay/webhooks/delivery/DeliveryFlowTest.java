package dev.cryptopay.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import dev.cryptopay.webhooks.WebhookTestBase;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Events go from a real Kafka topic through intake to a real HTTP receiver, signed. */
class DeliveryFlowTest extends WebhookTestBase {

    private WebhookReceiver receiver;

    @Autowired
    private DeliveryClaims claims;

    @BeforeEach
    void startReceiver() {
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    @Test
    void deliversTheEventSignedAsDocumented() throws Exception {
        MerchantIdentity merchant = newMerchant();
        JsonNode endpoint = register(merchant, receiver.url("/hooks"), List.of("payment.completed"));
        String secret = endpoint.get("secret").asString();

        String eventId = publish(
                "payment-links.events",
                merchant,
                "payment.completed",
                Map.of("id", "link-1", "amount", "10.5", "currency", "USDC", "status", "completed"));
        await("delivery created", () -> deliveriesOfEvent(eventId) == 1);
        scheduler.drain().block();

        assertThat(receiver.received()).hasSize(1);
        WebhookReceiver.Received request = receiver.received().get(0);
        assertThat(request.path()).isEqualTo("/hooks");
        assertThat(request.header("content-type")).startsWith("application/json");
        assertThat(request.header("x-service-event-id")).isEqualTo(eventId);
        // Checked with an independent HMAC (javax.crypto), not the production signer.
        assertThat(request.header("x-service-signature")).isEqualTo(WebhookReceiver.hmacHex(secret, request.body()));
        String timestamp = request.header("x-service-timestamp");
        assertThat(Long.parseLong(timestamp)).isEqualTo(clock.instant().getEpochSecond());
        byte[] timestamped = (timestamp + ".").getBytes(StandardCharsets.UTF_8);
        byte[] signed = new byte[timestamped.length + request.body().length];
        System.arraycopy(timestamped, 0, signed, 0, timestamped.length);
        System.arraycopy(request.body(), 0, signed, timestamped.length, request.body().length);
        assertThat(request.header("x-service-timestamped-signature"))
                .isEqualTo(WebhookReceiver.hmacHex(secret, signed));
        assertThat(opensslHmac(secret, request.body())).isEqualTo(request.header("x-service-signature"));

        JsonNode body = json.readTree(request.body());
        assertThat(body.propertyNames()).containsExactly("id", "type", "created_at", "data", "livemode");
        assertThat(body.get("id").asString()).isEqualTo(eventId);
        assertThat(body.get("type").asString()).isEqualTo("payment.completed");
        assertThat(body.get("livemode").asBoolean()).isFalse();
        assertThat(body.get("data").get("amount").asString()).isEqualTo("10.5");

        scheduler.drain().block();
        assertThat(receiver.received()).hasSize(1);
    }

    @Test
    void internalEventsAreNotKeptAndTheNotifyMemberNeverReachesTheMerchant() {
        MerchantIdentity merchant = newMerchant();
        register(merchant, receiver.url("/hooks"), List.of("subscription.activated"));
        String invited = publish("subscriptions.events", merchant, "subscriber.invited", Map.of("subscriber_id", "s"));
        String activated = UUID.randomUUID().toString();
        publishRaw(
                "subscriptions.events",
                merchant.merchantId().toString(),
                json.writeValueAsString(Map.of(
                        "id", activated,
                        "type", "subscription.activated",
                        "created_at", clock.instant().toString(),
                        "merchant_id", merchant.merchantId().toString(),
                        "mode", merchant.mode().wireName(),
                        "data", Map.of("status", "active"),
                        "notify", Map.of("customer_email", "ana@example.com"))));
        await("delivery created", () -> deliveriesOfEvent(activated) == 1);
        scheduler.drain().block();

        assertThat(eventStored(invited))
                .as("same partition, read before the later event")
                .isFalse();
        JsonNode body = json.readTree(receiver.received().get(0).body());
        assertThat(body.propertyNames()).containsExactly("id", "type", "created_at", "data", "livemode");
        assertThat(new String(receiver.received().get(0).body(), StandardCharsets.UTF_8))
                .doesNotContain("ana@example.com");
    }

    @Test
    void duplicateEventsOnTheTopicMakeOneDeliveryPerEndpoint() {
        MerchantIdentity merchant = newMerchant();
        register(merchant, receiver.url("/a"), List.of("payment.created"));
        register(merchant, receiver.url("/b"), List.of("payment.created", "payment.failed"));
        String id = UUID.randomUUID().toString();
        String value = json.writeValueAsString(Map.of(
                "id",
                id,
                "type",
                "payment.created",
                "created_at",
                clock.instant().toString(),
                "merchant_id",
                merchant.merchantId().toString(),
                "mode",
                "test",
                "data",
                Map.of("id", "link")));
        publishRaw("payment-links.events", merchant.merchantId().toString(), value);
        publishRaw("payment-links.events", merchant.merchantId().toString(), value);
        publishRaw("subscriptions.events", merchant.merchantId().toString(), value);
        String marker = publish("payment-links.events", merchant, "payment.failed", Map.of("id", "later"));
        await("later event stored", () -> eventStored(marker));

        assertThat(deliveriesOfEvent(id)).isEqualTo(2);
        scheduler.drain().block();
        assertThat(receiver.received())
                .extracting(WebhookReceiver.Received::path)
                .containsExactlyInAnyOrder("/a", "/b", "/b");
        assertThat(receiver.received().stream()
                        .filter(r -> r.header("x-service-event-id").equals(id)))
                .hasSize(2);
    }

    @Test
    void neverDeliversAnotherMerchantsOrModesEvents() {
        MerchantIdentity merchant = newMerchant();
        register(merchant, receiver.url("/mine"), List.of("payment.created"));
        MerchantIdentity sameMerchantLive = new MerchantIdentity(merchant.merchantId(), Mode.LIVE);

        String other = publish("payment-links.events", newMerchant(), "payment.created", Map.of("id", "x"));
        String live = publish("payment-links.events", sameMerchantLive, "payment.created", Map.of("id", "y"));
        String unsubscribed = publish("payment-links.events", merchant, "payment.refunded", Map.of("id", "z"));
        String mine = publish("payment-links.events", merchant, "payment.created", Map.of("id", "w"));
        await(
                "all stored",
                () -> eventStored(other) && eventStored(live) && eventStored(unsubscribed) && eventStored(mine));

        scheduler.drain().block();
        assertThat(deliveriesOfEvent(other)).isZero();
        assertThat(deliveriesOfEvent(live)).isZero();
        assertThat(deliveriesOfEvent(unsubscribed)).isZero();
        assertThat(receiver.received())
                .extracting(r -> r.header("x-service-event-id"))
                .containsExactly(mine);
    }

    @Test
    void aPoisonRecordIsParkedAndDoesNotBlockItsPartition() {
        MerchantIdentity merchant = newMerchant();
        register(merchant, receiver.url("/p"), List.of("payment.created"));
        String key = merchant.merchantId().toString();
        publishRaw("payment-links.events", key, "this is not json");
        publishRaw("payment-links.events", key, "{\"id\":\"not-a-uuid\",\"type\":\"payment.created\"}");
        String good = publish("payment-links.events", merchant, "payment.created", Map.of("id", "after"));

        await("the event after the poison records", () -> eventStored(good));
        Long parked = database.sql("SELECT count(*) FROM parked_record WHERE record_key = :key")
                .bind("key", key)
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
        assertThat(parked).isEqualTo(2);
        String reason = database.sql("SELECT reason FROM parked_record WHERE record_key = :key AND value LIKE '{%'")
                .bind("key", key)
                .map(row -> row.get(0, String.class))
                .one()
                .block();
        assertThat(reason).isEqualTo("id must be a UUID");
    }

    @Test
    void fiveHundredEventsMakeFiveHundredDeliveries() {
        MerchantIdentity merchant = newMerchant();
        register(merchant, receiver.url("/bulk"), List.of("payment.pending"));
        List<String> ids = new java.util.ArrayList<>();
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<String, String>(
                Map.of(
                        "bootstrap.servers",
                        dev.cryptopay.testsupport.TestKafka.shared().bootstrapServers(),
                        "acks",
                        "all"),
                new org.apache.kafka.common.serialization.StringSerializer(),
                new org.apache.kafka.common.serialization.StringSerializer())) {
            for (int i = 0; i < 500; i++) {
                String id = UUID.randomUUID().toString();
                ids.add(id);
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                        "payment-links.events",
                        merchant.merchantId().toString(),
                        json.writeValueAsString(Map.of(
                                "id",
                                id,
                                "type",
                                "payment.pending",
                                "created_at",
                                clock.instant().toString(),
                                "merchant_id",
                                merchant.merchantId().toString(),
                                "mode",
                                "test",
                                "data",
                                Map.of("n", i)))));
            }
            producer.flush();
        }
        await("500 deliveries", () -> countDeliveries(merchant) == 500);

        int attempted = scheduler.drain().block();

        assertThat(attempted).isGreaterThanOrEqualTo(500);
        assertThat(receiver.received())
                .extracting(r -> r.header("x-service-event-id"))
                .hasSize(500)
                .containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    void aDeliveryClaimedByAnInstanceThatDiedIsAttemptedAfterItsLease() {
        MerchantIdentity merchant = newMerchant();
        register(merchant, receiver.url("/lease"), List.of("payment.created"));
        String eventId = publish("payment-links.events", merchant, "payment.created", Map.of("id", "l"));
        await("delivery created", () -> deliveriesOfEvent(eventId) == 1);
        // Another instance claims everything due, then dies before attempting.
        List<DueDelivery> claimed = claims.claim(
                        clock.instant(), 1000, clock.instant().plusSeconds(60))
                .block();
        // The claim reads what the attempt needs in the same statement.
        DueDelivery mine = claimed.stream()
                .filter(due -> due.delivery().eventId().toString().equals(eventId))
                .findFirst()
                .orElseThrow();
        assertThat(mine.url()).isEqualTo(receiver.url("/lease"));
        assertThat(mine.body()).contains(eventId);
        assertThat(mine.endpointEnabled()).isTrue();
        assertThat(mine.endpointDeleted()).isFalse();
        assertThat(mine.secretEncrypted()).isNotEmpty();

        scheduler.drain().block();
        assertThat(receiver.received()).as("leased to the dead instance").isEmpty();
        clock.advance(java.time.Duration.ofSeconds(61));
        scheduler.drain().block();

        assertThat(receiver.received())
                .extracting(r -> r.header("x-service-event-id"))
                .contains(eventId);
    }

    private long countDeliveries(MerchantIdentity merchant) {
        return database.sql("SELECT count(*) FROM webhook_delivery WHERE merchant_id = :m")
                .bind("m", merchant.merchantId())
                .map(row -> row.get(0, Long.class))
                .one()
                .block();
    }

    /** The receiver-side check from the docs, run with the openssl command line. */
    private static String opensslHmac(String secret, byte[] body) throws Exception {
        Process process = new ProcessBuilder("openssl", "dgst", "-sha256", "-hmac", secret).start();
        try (var in = new ByteArrayInputStream(body);
                var out = process.getOutputStream()) {
            in.transferTo(out);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(process.waitFor()).isZero();
        return output.substring(output.lastIndexOf(' ') + 1);
    }
}
