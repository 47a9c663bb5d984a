package dev.cryptopay.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import dev.cryptopay.testsupport.webhook.WebhookReceiver.Reply;
import dev.cryptopay.webhooks.WebhookTestBase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

/**
 * Failed attempts are retried on the documented schedule, driven by a moved clock instead of waiting, through the
 * running service: intake, scheduler, database and the delivery routes. The schedule's arithmetic alone is in
 * {@link RetryScheduleTest}.
 */
class RetryFlowTest extends WebhookTestBase {

    private WebhookReceiver receiver;

    @BeforeEach
    void startReceiver() {
        receiver = new WebhookReceiver();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    private String deliveryFor(MerchantIdentity merchant, String path) {
        register(merchant, receiver.url(path), List.of("payment.failed"));
        String eventId = publish("payment-links.events", merchant, "payment.failed", Map.of("id", "link"));
        await("delivery created", () -> deliveriesOfEvent(eventId) == 1);
        return database.sql("SELECT id FROM webhook_delivery WHERE event_id = :id")
                .bind("id", UUID.fromString(eventId))
                .map(row -> row.get(0, UUID.class).toString())
                .one()
                .block();
    }

    private JsonNode delivery(MerchantIdentity merchant, String id) {
        return read(as(merchant, HttpMethod.GET, "/webhook-deliveries/" + id)
                        .exchange()
                        .expectStatus()
                        .isOk())
                .get("data");
    }

    @Test
    void aReceiverAnsweringJunkWithNulBytesIsLoggedAndRetriedWithoutHarmingOthers() {
        MerchantIdentity hostile = newMerchant();
        MerchantIdentity neighbour = newMerchant();
        byte[] junk = "bad\u0000\u0000answer\u0000".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        receiver.otherwise(request -> request.path().equals("/junk") ? Reply.body(500, junk) : Reply.status(200));
        String junkDelivery = deliveryFor(hostile, "/junk");
        String healthyDelivery = deliveryFor(neighbour, "/healthy");

        scheduler.drain().block();

        JsonNode failed = delivery(hostile, junkDelivery);
        assertThat(failed.get("status").asString()).isEqualTo("pending");
        assertThat(failed.get("attempt_log").get(0).get("response_excerpt").asString())
                .isEqualTo("badanswer");
        assertThat(delivery(neighbour, healthyDelivery).get("status").asString())
                .isEqualTo("succeeded");
    }

    @Test
    void anAttemptThatCannotRunLeavesTheOthersOfThePassAlone() {
        MerchantIdentity broken = newMerchant();
        MerchantIdentity neighbour = newMerchant();
        String brokenDelivery = deliveryFor(broken, "/broken");
        String healthyDelivery = deliveryFor(neighbour, "/healthy");
        // The endpoint's secret no longer decrypts: its attempt fails before anything is sent.
        database.sql("UPDATE webhook_endpoint SET secret_encrypted = :junk WHERE merchant_id = :merchant")
                .bind("junk", java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3}))
                .bind("merchant", broken.merchantId())
                .then()
                .block();

        scheduler.drain().block();

        assertThat(delivery(neighbour, healthyDelivery).get("status").asString())
                .isEqualTo("succeeded");
        JsonNode stillDue = delivery(broken, brokenDelivery);
        assertThat(stillDue.get("status").asString()).isEqualTo("pending");
        assertThat(stillDue.get("attempts").asInt()).isZero();
    }

    @Test
    void aReceiverThatFailsTwiceGetsTheSameEventThreeTimesOnSchedule() {
        MerchantIdentity merchant = newMerchant();
        receiver.script(Reply.status(500), Reply.status(503));
        Instant start = clock.instant();
        String id = deliveryFor(merchant, "/flaky");

        scheduler.drain().block();
        assertThat(receiver.received()).hasSize(1);
        JsonNode afterFirst = delivery(merchant, id);
        assertThat(afterFirst.get("status").asString()).isEqualTo("pending");
        assertThat(Instant.parse(afterFirst.get("next_attempt_at").asString()))
                .isEqualTo(start.plus(Duration.ofMinutes(5)));

        clock.advance(Duration.ofMinutes(4).plusSeconds(59));
        scheduler.drain().block();
        assertThat(receiver.received()).as("not due before 5 minutes").hasSize(1);
        clock.advance(Duration.ofSeconds(1));
        scheduler.drain().block();
        assertThat(receiver.received()).hasSize(2);
        assertThat(Instant.parse(delivery(merchant, id).get("next_attempt_at").asString()))
                .isEqualTo(start.plus(Duration.ofMinutes(30)));

        clock.set(start.plus(Duration.ofMinutes(30)));
        scheduler.drain().block();

        JsonNode done = delivery(merchant, id);
        assertThat(done.get("status").asString()).isEqualTo("succeeded");
        assertThat(done.get("attempts").asInt()).isEqualTo(3);
        assertThat(done.get("attempt_log"))
                .extracting(a -> a.get("status_code").asInt())
                .containsExactly(500, 503, 200);
        assertThat(receiver.received()).hasSize(3);
        assertThat(receiver.received())
                .extracting(r -> r.header("x-service-event-id"))
                .containsOnly(receiver.received().get(0).header("x-service-event-id"));
        assertThat(receiver.received())
                .extracting(r -> r.body())
                .allSatisfy(body ->
                        assertThat(body).isEqualTo(receiver.received().get(0).body()));

        clock.advance(Duration.ofDays(2));
        scheduler.drain().block();
        assertThat(receiver.received()).hasSize(3);
    }

    @Test
    void afterTheLastAttemptTheDeliveryFailsAndCanBeRecovered() {
        MerchantIdentity merchant = newMerchant();
        receiver.otherwise(call -> Reply.status(500));
        Instant start = clock.instant();
        String id = deliveryFor(merchant, "/down");

        List<Duration> offsets = List.of(
                Duration.ZERO,
                Duration.ofMinutes(5),
                Duration.ofMinutes(30),
                Duration.ofHours(2),
                Duration.ofHours(24));
        for (int i = 0; i < offsets.size(); i++) {
            clock.set(start.plus(offsets.get(i)));
            scheduler.drain().block();
            assertThat(receiver.received()).as("attempt at +" + offsets.get(i)).hasSize(i + 1);
        }
        JsonNode failed = delivery(merchant, id);
        assertThat(failed.get("status").asString()).isEqualTo("failed");
        assertThat(failed.get("attempts").asInt()).isEqualTo(5);
        assertThat(failed.has("next_attempt_at")).isFalse();
        clock.advance(Duration.ofDays(3));
        scheduler.drain().block();
        assertThat(receiver.received()).hasSize(5);

        receiver.otherwise(call -> Reply.status(204));
        String endpointId = failed.get("endpoint_id").asString();
        JsonNode recovered = read(as(merchant, HttpMethod.POST, "/webhook-endpoints/" + endpointId + "/recover")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"since\":\"" + start.minusSeconds(60) + "\"}")
                .exchange()
                .expectStatus()
                .isAccepted());
        assertThat(recovered.get("data").get("recovered").asInt()).isEqualTo(1);
        scheduler.drain().block();
        assertThat(delivery(merchant, id).get("status").asString()).isEqualTo("succeeded");
        assertThat(receiver.received()).hasSize(6);
    }

    @Test
    void recoverIsBoundedPerCallAndToTheLast30Days() {
        MerchantIdentity merchant = newMerchant();
        receiver.otherwise(call -> Reply.status(500));
        Instant start = clock.instant();
        String endpointId = register(merchant, receiver.url("/bounded"), List.of("payment.failed"))
                .get("id")
                .asString();
        List<String> events = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            events.add(publish("payment-links.events", merchant, "payment.failed", Map.of("id", "link-" + i)));
        }
        await("three deliveries", () -> events.stream().allMatch(event -> deliveriesOfEvent(event) == 1));
        List<String> ids = database.sql(
                        "SELECT id FROM webhook_delivery WHERE endpoint_id = :endpoint " + "ORDER BY created_at, id")
                .bind("endpoint", UUID.fromString(endpointId))
                .map(row -> row.get(0, UUID.class).toString())
                .all()
                .collectList()
                .block();
        String third = ids.get(2);
        for (Duration offset : List.of(
                Duration.ZERO,
                Duration.ofMinutes(5),
                Duration.ofMinutes(30),
                Duration.ofHours(2),
                Duration.ofHours(24))) {
            clock.set(start.plus(offset));
            scheduler.drain().block();
        }
        assertThat(ids)
                .hasSize(3)
                .allSatisfy(
                        id -> assertThat(delivery(merchant, id).get("status").asString())
                                .isEqualTo("failed"));

        JsonNode first = recover(merchant, endpointId, start.minusSeconds(60), 202);
        assertThat(first.get("recovered").asInt()).isEqualTo(2); // webhooks.delivery.recover-batch in the tests
        assertThat(first.get("has_more").asBoolean()).isTrue();
        JsonNode second = recover(merchant, endpointId, start.minusSeconds(60), 202);
        assertThat(second.get("recovered").asInt()).isEqualTo(1);
        assertThat(second.get("has_more").asBoolean()).isFalse();
        assertThat(delivery(merchant, third).get("status").asString()).isEqualTo("pending");

        JsonNode tooOld = read(as(merchant, HttpMethod.POST, "/webhook-endpoints/" + endpointId + "/recover")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"since\":\"" + clock.instant().minus(Duration.ofDays(31)) + "\"}")
                .exchange()
                .expectStatus()
                .isBadRequest());
        assertThat(tooOld.get("message").asString()).isEqualTo("since must be within the last 30 days");
    }

    private JsonNode recover(MerchantIdentity merchant, String endpointId, Instant since, int status) {
        return read(as(merchant, HttpMethod.POST, "/webhook-endpoints/" + endpointId + "/recover")
                        .contentType(MediaType.APPLICATION_JSON)
                        .bodyValue("{\"since\":\"" + since + "\"}")
                        .exchange()
                        .expectStatus()
                        .isEqualTo(status))
                .get("data");
    }

    @Test
    void anAttemptWhoseLogCannotBeWrittenLeavesTheDeliveryAsItWas() {
        MerchantIdentity merchant = newMerchant();
        receiver.otherwise(call -> Reply.status(500));
        String id = deliveryFor(merchant, "/atomic");
        String trigger = "refuse_attempt_" + id.replace("-", "");
        database.sql("CREATE FUNCTION " + trigger + "() RETURNS trigger AS $$ BEGIN "
                        + "IF NEW.delivery_id = '" + id + "' THEN RAISE EXCEPTION 'attempt log unavailable'; END IF; "
                        + "RETURN NEW; END $$ LANGUAGE plpgsql")
                .then()
                .block();
        database.sql("CREATE TRIGGER " + trigger + " BEFORE INSERT ON webhook_attempt FOR EACH ROW EXECUTE FUNCTION "
                        + trigger + "()")
                .then()
                .block();
        try {
            scheduler.drain().block();

            // The receiver was called, but neither the new state nor the log entry was kept: both or nothing.
            assertThat(receiver.received()).hasSize(1);
            JsonNode unchanged = delivery(merchant, id);
            assertThat(unchanged.get("status").asString()).isEqualTo("pending");
            assertThat(unchanged.get("attempts").asInt()).isZero();
            assertThat(unchanged.get("attempt_log")).isEmpty();
        } finally {
            database.sql("DROP TRIGGER " + trigger + " ON webhook_attempt")
                    .then()
                    .block();
            database.sql("DROP FUNCTION " + trigger + "()").then().block();
        }

        clock.advance(Duration.ofMinutes(2)); // the claim lapses; the attempt is made again and recorded
        scheduler.drain().block();
        JsonNode recorded = delivery(merchant, id);
        assertThat(recorded.get("attempts").asInt()).isEqualTo(1);
        assertThat(recorded.get("attempt_log")).hasSize(1);
    }

    @Test
    void manualRetryAttemptsAgainNow() {
        MerchantIdentity merchant = newMerchant();
        receiver.script(Reply.status(500));
        String id = deliveryFor(merchant, "/manual");
        scheduler.drain().block();

        as(merchant, HttpMethod.POST, "/webhook-deliveries/" + id + "/retry")
                .exchange()
                .expectStatus()
                .isAccepted();
        scheduler.drain().block();
        assertThat(receiver.received()).hasSize(2);
        assertThat(delivery(merchant, id).get("status").asString()).isEqualTo("succeeded");

        as(newMerchant(), HttpMethod.POST, "/webhook-deliveries/" + id + "/retry")
                .exchange()
                .expectStatus()
                .isNotFound();
        as(newMerchant(), HttpMethod.GET, "/webhook-deliveries/" + id)
                .exchange()
                .expectStatus()
                .isNotFound();
    }

    @Test
    void honoursRetryAfterWithinItsBound() {
        MerchantIdentity merchant = newMerchant();
        receiver.script(
                new Reply(429, Map.of("Retry-After", "900"), Duration.ZERO),
                new Reply(503, Map.of("Retry-After", "999999"), Duration.ZERO));
        Instant start = clock.instant();
        String id = deliveryFor(merchant, "/busy");

        scheduler.drain().block();
        assertThat(Instant.parse(delivery(merchant, id).get("next_attempt_at").asString()))
                .as("15 minutes asked, later than the 5-minute step")
                .isEqualTo(start.plus(Duration.ofMinutes(15)));

        clock.set(start.plus(Duration.ofMinutes(15)));
        scheduler.drain().block();
        assertThat(Instant.parse(delivery(merchant, id).get("next_attempt_at").asString()))
                .as("capped at one hour")
                .isEqualTo(start.plus(Duration.ofMinutes(75)));
    }

    @Test
    void redirectsAreNotFollowedAndCountAsFailures() {
        MerchantIdentity merchant = newMerchant();
        receiver.script(new Reply(302, Map.of("Location", receiver.url("/elsewhere")), Duration.ZERO));
        String id = deliveryFor(merchant, "/moved");

        scheduler.drain().block();

        JsonNode after = delivery(merchant, id);
        assertThat(after.get("status").asString()).isEqualTo("pending");
        assertThat(after.get("attempt_log").get(0).get("outcome").asString()).isEqualTo("redirect");
        assertThat(receiver.received())
                .extracting(WebhookReceiver.Received::path)
                .containsExactly("/moved");
    }

    @Test
    void listsAnEndpointsDeliveriesWithFilters() {
        MerchantIdentity merchant = newMerchant();
        receiver.script(Reply.status(500));
        String endpointId = register(merchant, receiver.url("/list"), List.of("payment.failed", "payment.created"))
                .get("id")
                .asString();
        String failedEvent = publish("payment-links.events", merchant, "payment.failed", Map.of("id", "a"));
        String createdEvent = publish("payment-links.events", merchant, "payment.created", Map.of("id", "b"));
        await("both deliveries", () -> deliveriesOfEvent(failedEvent) == 1 && deliveriesOfEvent(createdEvent) == 1);
        scheduler.drain().block();

        JsonNode all = read(as(merchant, HttpMethod.GET, "/webhook-endpoints/" + endpointId + "/deliveries")
                        .exchange()
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(all.get("pagination").get("total_records").asInt()).isEqualTo(2);
        JsonNode created = read(as(
                                merchant,
                                HttpMethod.GET,
                                "/webhook-endpoints/" + endpointId + "/deliveries?event_type=payment.created")
                        .exchange()
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(created.get("data")).hasSize(1);
        JsonNode pending = read(as(
                                merchant,
                                HttpMethod.GET,
                                "/webhook-endpoints/" + endpointId + "/deliveries?status=pending&limit=1")
                        .exchange()
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(pending.get("pagination").get("total_records").asInt()).isEqualTo(1);
        as(merchant, HttpMethod.GET, "/webhook-endpoints/" + endpointId + "/deliveries?status=lost")
                .exchange()
                .expectStatus()
                .isBadRequest();
        as(newMerchant(), HttpMethod.GET, "/webhook-endpoints/" + endpointId + "/deliveries")
                .exchange()
                .expectStatus()
                .isNotFound();
    }
}
