package dev.cryptopay.subscriptions.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.subscriptions.SubscriptionsTestBase;
import dev.cryptopay.testsupport.TestKafka;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

class SubscriberRoutesTest extends SubscriptionsTestBase {

    @Test
    void invitesACustomerWithAnEnrolmentLink() {
        MerchantIdentity merchant = newMerchant();
        JsonNode plan = createPlan(merchant, amountPlan("Pro"));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("subscription_plan_id", plan.get("id").asString());
        body.put("customer_id", "cus_42");
        body.put("customer_name", "Ada Lovelace");
        body.put("customer_email", "ada@example.com");
        body.put("webhook_metadata", Map.of("crm", "A-1"));
        body.put("success_return_url", "https://shop.test/ok");
        body.put("failure_return_url", "https://shop.test/failed");

        JsonNode subscriber = read(send(merchant, HttpMethod.POST, "/subscriber/", body)
                .expectStatus()
                .isCreated());

        String id = subscriber.get("id").asString();
        assertThat(subscriber.get("subscription_plan_id").asString())
                .isEqualTo(plan.get("id").asString());
        assertThat(subscriber.get("merchant_user_id").asString())
                .isEqualTo(merchant.merchantId().toString());
        assertThat(subscriber.get("customer_id").asString()).isEqualTo("cus_42");
        assertThat(subscriber.get("customer_name").asString()).isEqualTo("Ada Lovelace");
        assertThat(subscriber.get("customer_email").asString()).isEqualTo("ada@example.com");
        assertThat(subscriber.get("subscription_link_url").asString())
                .isEqualTo("https://pay.test/subscribe?subscriber_id=" + id);
        assertThat(subscriber.get("status").asString()).isEqualTo("invitation_sent");
        assertThat(subscriber.get("subscription_plan").get("id").asString())
                .isEqualTo(plan.get("id").asString());
        assertThat(subscriber.get("subscription_plan").get("formatted_amount").asString())
                .isEqualTo("10");
        assertThat(subscriber.get("subscription_link").isNull()).isTrue();
        assertThat(subscriber.get("webhook_metadata").get("crm").asString()).isEqualTo("A-1");
        assertThat(subscriber.get("success_return_url").asString()).isEqualTo("https://shop.test/ok");
        assertThat(subscriber.get("failure_return_url").asString()).isEqualTo("https://shop.test/failed");
        assertThat(subscriber.get("created_at").asString()).isNotBlank();

        assertThat(read(get(merchant, "/subscriber/" + id).expectStatus().isOk()))
                .isEqualTo(subscriber);
    }

    @Test
    void anInvitationWithAnAddressTellsNotificationServiceWhomToWriteAndWhat() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, amountPlan("Pro <gold>")).get("id").asString();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("subscription_plan_id", planId);
        body.put("customer_name", "Ada <b>Lovelace</b>");
        body.put("customer_email", "ada@example.com");
        String id = read(as(merchant, HttpMethod.POST, "/subscriber/")
                        .header(InternalHeaders.MERCHANT_NAME, "Caf%C3%A9+%26+Co")
                        .contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(json.writeValueAsString(body))
                        .exchange()
                        .expectStatus()
                        .isCreated())
                .get("id")
                .asString();
        createSubscriber(merchant, planId, "No address", null);
        send(merchant, HttpMethod.PUT, "/subscriber/" + id, Map.of("status", "active"))
                .expectStatus()
                .isOk();

        List<ConsumerRecord<String, String>> records = TestKafka.recordsWithKey(
                "subscriptions.events", merchant.merchantId().toString(), 2);
        assertThat(records)
                .as("no invitation for the subscriber without an address")
                .extracting(record -> TestKafka.header(record, "event-type"))
                .containsExactly("subscriber.invited", "subscription.activated");
        JsonNode event = json.readTree(records.get(0).value());
        assertThat(event.get("data").get("subscriber_id").asString()).isEqualTo(id);
        assertThat(event.get("data").get("status").asString()).isEqualTo("invitation_sent");
        JsonNode notify = event.get("notify");
        assertThat(notify.get("customer_email").asString()).isEqualTo("ada@example.com");
        assertThat(notify.get("customer_name").asString()).isEqualTo("Ada <b>Lovelace</b>");
        assertThat(notify.get("merchant_name").asString()).isEqualTo("Café & Co");
        assertThat(notify.get("subscription_link_url").asString())
                .isEqualTo("https://pay.test/subscribe?subscriber_id=" + id);
        assertThat(notify.get("plan_name").asString()).isEqualTo("Pro <gold>");
        assertThat(notify.get("amount").asString()).isEqualTo("10");
        assertThat(notify.get("interval_seconds").asLong()).isPositive();
        assertThat(notify.get("network").asString()).isNotBlank();
        assertThat(notify.get("cancel_after_missed").isNumber()).isTrue();
        assertThat(json.readTree(records.get(1).value()).get("notify")).isEqualTo(notify);
        assertThat(merchantEvents(merchant, 1))
                .extracting(record -> TestKafka.header(record, "event-type"))
                .as("internal, not a merchant event")
                .containsExactly("subscription.activated");
    }

    @Test
    void refusesUnknownPlansAndBadFields() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, amountPlan("Pro")).get("id").asString();

        send(
                        merchant,
                        HttpMethod.POST,
                        "/subscriber/",
                        Map.of("subscription_plan_id", UUID.randomUUID().toString()))
                .expectStatus()
                .isNotFound();
        send(newMerchant(), HttpMethod.POST, "/subscriber/", Map.of("subscription_plan_id", planId))
                .expectStatus()
                .isNotFound();
        JsonNode malformed =
                read(send(merchant, HttpMethod.POST, "/subscriber/", Map.of("subscription_plan_id", "plan-1"))
                        .expectStatus()
                        .isBadRequest());
        assertThat(malformed.get("message").asString()).isEqualTo("subscription_plan_id must be a UUID");
        assertThat(malformed.get("errors").get(0).get("field").asString()).isEqualTo("subscription_plan_id");
        send(merchant, HttpMethod.POST, "/subscriber/", Map.of()).expectStatus().isBadRequest();
        for (Map<String, Object> bad : List.<Map<String, Object>>of(
                Map.of("subscription_plan_id", planId, "customer_email", "not-an-email"),
                Map.of("subscription_plan_id", planId, "customer_name", "x".repeat(101)),
                Map.of("subscription_plan_id", planId, "webhook_metadata", "text"),
                Map.of("subscription_plan_id", planId, "success_return_url", "ftp://x"),
                Map.of("subscription_plan_id", planId, "nickname", "Ada"))) {
            send(merchant, HttpMethod.POST, "/subscriber/", bad).expectStatus().isBadRequest();
        }
    }

    @Test
    void listsWithDefaultsFiltersAndTheInvitations() {
        MerchantIdentity merchant = newMerchant();
        String pro = createPlan(merchant, amountPlan("Pro")).get("id").asString();
        String basic = createPlan(merchant, valuePlan("Basic")).get("id").asString();
        for (int i = 1; i <= 11; i++) {
            createSubscriber(merchant, pro, "Pro customer " + i, "pro" + i + "@example.com");
            clock.advance(Duration.ofSeconds(1));
        }
        String basicId = createSubscriber(merchant, basic, "Grace Hopper", "grace@navy.test")
                .get("id")
                .asString();

        JsonNode all = read(get(merchant, "/subscriber/").expectStatus().isOk());
        assertThat(all.get("total").asLong()).isEqualTo(12);
        assertThat(all.get("page").asInt()).isEqualTo(1);
        assertThat(all.get("page_size").asInt()).isEqualTo(10);
        assertThat(all.get("total_pages").asLong()).isEqualTo(2);
        assertThat(all.get("subscribers")).hasSize(10);
        assertThat(all.get("data")).hasSize(10);
        assertThat(all.get("data").get(0).get("id").asString())
                .isEqualTo(all.get("subscribers").get(0).get("id").asString());
        assertThat(all.get("data").get(0).has("subscription_plan")).isFalse();

        assertThat(read(get(merchant, "/subscriber/?plan_id=" + basic)
                                .expectStatus()
                                .isOk())
                        .get("total")
                        .asLong())
                .isEqualTo(1);
        assertThat(read(get(merchant, "/subscriber/?search=NAVY").expectStatus().isOk())
                        .get("subscribers")
                        .get(0)
                        .get("id")
                        .asString())
                .isEqualTo(basicId);
        assertThat(read(get(merchant, "/subscriber/plan/" + pro + "?page=2")
                                .expectStatus()
                                .isOk())
                        .get("subscribers"))
                .hasSize(1);
        get(merchant, "/subscriber/plan/" + UUID.randomUUID()).expectStatus().isNotFound();
        get(merchant, "/subscriber/plan/nope").expectStatus().isBadRequest();
        assertThat(read(get(merchant, "/subscriber/?end_date=2000-01-01")
                                .expectStatus()
                                .isOk())
                        .get("total")
                        .asLong())
                .isZero();

        send(merchant, HttpMethod.PUT, "/subscriber/" + basicId, Map.of("status", "active"))
                .expectStatus()
                .isOk();
        JsonNode invitations =
                read(get(merchant, "/invitations/").expectStatus().isOk());
        assertThat(invitations.get("total").asLong()).isEqualTo(11);
        assertThat(invitations.get("invitations"))
                .allSatisfy(s -> assertThat(s.get("status").asString()).isEqualTo("invitation_sent"));
        assertThat(read(get(merchant, "/invitations/?plan_id=" + basic)
                                .expectStatus()
                                .isOk())
                        .get("total")
                        .asLong())
                .isZero();
        for (String bad : List.of(
                "plan_id=x",
                "page_size=0",
                "page=-1",
                "start_date=soon",
                "start_date=2026-02-01&end_date=2026-01-01")) {
            get(merchant, "/subscriber/?" + bad).expectStatus().isBadRequest();
            get(merchant, "/invitations/?" + bad).expectStatus().isBadRequest();
        }
    }

    @Test
    void statusChangesEmitTheirEvents() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, amountPlan("Pro")).get("id").asString();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("subscription_plan_id", planId);
        body.put("webhook_metadata", Map.of("ref", "r-9"));
        String id = read(send(merchant, HttpMethod.POST, "/subscriber/", body)
                        .expectStatus()
                        .isCreated())
                .get("id")
                .asString();
        String uri = "/subscriber/" + id;

        JsonNode renamed =
                read(send(merchant, HttpMethod.PUT, uri, Map.of("customer_name", "Ada", "customer_email", "a@x.test"))
                        .expectStatus()
                        .isOk());
        assertThat(renamed.get("customer_name").asString()).isEqualTo("Ada");
        assertThat(renamed.get("status").asString()).isEqualTo("invitation_sent");
        for (String status : List.of("active", "suspended", "inactive", "active", "cancelled")) {
            assertThat(read(send(merchant, HttpMethod.PUT, uri, Map.of("status", status))
                                    .expectStatus()
                                    .isOk())
                            .get("status")
                            .asString())
                    .isEqualTo(status);
        }
        send(merchant, HttpMethod.PUT, uri, Map.of("status", "cancelled"))
                .expectStatus()
                .isOk();
        send(merchant, HttpMethod.PUT, uri, Map.of("status", "gone"))
                .expectStatus()
                .isBadRequest();

        List<ConsumerRecord<String, String>> records = merchantEvents(merchant, 5);
        assertThat(records)
                .extracting(r -> TestKafka.header(r, "event-type"))
                .containsExactly(
                        "subscription.activated",
                        "subscription.paused",
                        "subscription.paused",
                        "subscription.activated",
                        "subscription.cancelled");
        JsonNode cancelled = json.readTree(records.get(4).value());
        assertThat(cancelled.get("merchant_id").asString())
                .isEqualTo(merchant.merchantId().toString());
        assertThat(cancelled.get("mode").asString()).isEqualTo("test");
        JsonNode data = cancelled.get("data");
        assertThat(data.get("subscriber_id").asString()).isEqualTo(id);
        assertThat(data.get("plan_id").asString()).isEqualTo(planId);
        assertThat(data.get("subscription_link_id").isNull()).isTrue();
        assertThat(data.get("status").asString()).isEqualTo("cancelled");
        assertThat(data.get("amount").asString()).isEqualTo("10000000");
        assertThat(data.get("currency").asString()).isEqualTo("USDC");
        assertThat(data.get("tx_hash").isNull()).isTrue();
        assertThat(data.get("metadata").get("ref").asString()).isEqualTo("r-9");
        assertThat(TestKafka.header(records.get(0), "aggregate-type")).isEqualTo("subscriber");
        assertThat(TestKafka.header(records.get(0), "aggregate-id")).isEqualTo(id);
    }

    @Test
    void anotherMerchantOrModeSeesNothing() {
        MerchantIdentity merchant = newMerchant();
        String planId = createPlan(merchant, amountPlan("Pro")).get("id").asString();
        String uri = "/subscriber/"
                + createSubscriber(merchant, planId, "Ada", "ada@example.com")
                        .get("id")
                        .asString();
        for (MerchantIdentity stranger :
                List.of(newMerchant(), new MerchantIdentity(merchant.merchantId(), Mode.LIVE))) {
            get(stranger, uri).expectStatus().isNotFound();
            send(stranger, HttpMethod.PUT, uri, Map.of("status", "cancelled"))
                    .expectStatus()
                    .isNotFound();
            get(stranger, "/subscriber/plan/" + planId).expectStatus().isNotFound();
            assertThat(read(get(stranger, "/subscriber/").expectStatus().isOk())
                            .get("total")
                            .asLong())
                    .isZero();
            assertThat(read(get(stranger, "/invitations/").expectStatus().isOk())
                            .get("total")
                            .asLong())
                    .isZero();
        }
        get(merchant, "/subscriber/123").expectStatus().isBadRequest();
        get(merchant, "/subscriber/" + UUID.randomUUID()).expectStatus().isNotFound();
    }
}
