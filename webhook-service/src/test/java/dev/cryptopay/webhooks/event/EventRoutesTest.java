package dev.cryptopay.webhooks.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.webhooks.WebhookTestBase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import tools.jackson.databind.JsonNode;

/** {@code GET /events} and {@code GET /events/{id}} on real PostgreSQL and Kafka. */
class EventRoutesTest extends WebhookTestBase {

    /** A receiver nobody listens on: each attempt fails at once with a refused connection. */
    private static final String CLOSED_PORT = "http://127.0.0.1:9/hooks";

    private JsonNode get(MerchantIdentity merchant, String uri) {
        return read(as(merchant, HttpMethod.GET, uri).exchange().expectStatus().isOk());
    }

    private JsonNode badRequest(MerchantIdentity merchant, String uri) {
        return read(as(merchant, HttpMethod.GET, uri).exchange().expectStatus().isBadRequest());
    }

    /** Publishes an event about the link, one second after the previous one, and waits until it is stored. */
    private String publishAbout(MerchantIdentity merchant, String type, String linkId) {
        clock.advance(Duration.ofSeconds(1));
        String id = publish("payment-links.events", merchant, type, Map.of("id", linkId, "amount", "10"));
        await("event " + id + " stored", () -> eventStored(id));
        return id;
    }

    private static List<String> ids(JsonNode items) {
        List<String> ids = new ArrayList<>();
        items.forEach(item -> ids.add(item.get("id").asString()));
        return ids;
    }

    @Test
    void aLinksEventsAreListedNewestFirstWithTheirDeliveries() {
        MerchantIdentity merchant = newMerchant();
        JsonNode endpoint = register(merchant, CLOSED_PORT, List.of("payment.created", "payment.completed"));
        String link = UUID.randomUUID().toString();
        String other = UUID.randomUUID().toString();
        String created = publishAbout(merchant, "payment.created", link);
        String otherCreated = publishAbout(merchant, "payment.created", other);
        String completed = publishAbout(merchant, "payment.completed", link);
        await("3 deliveries", () -> deliveriesOfMerchant(merchant) == 3);
        scheduler.drain().block();

        JsonNode response = get(merchant, "/events?object_id=" + link);

        assertThat(response.get("message").asString()).isEqualTo("Events retrieved");
        JsonNode page = response.get("data");
        assertThat(ids(page.get("data"))).containsExactly(completed, created);
        assertThat(page.get("pagination").get("total_records").asLong()).isEqualTo(2);
        JsonNode event = page.get("data").get(0);
        assertThat(event.get("type").asString()).isEqualTo("payment.completed");
        assertThat(event.get("object_id").asString()).isEqualTo(link);
        assertThat(event.get("data").get("id").asString()).isEqualTo(link);
        assertThat(event.get("data").get("amount").asString()).isEqualTo("10");
        assertThat(event.get("livemode").asBoolean()).isFalse();
        assertThat(Instant.parse(event.get("created_at").asString())).isBeforeOrEqualTo(clock.instant());
        JsonNode delivery = event.get("deliveries").get(0);
        assertThat(event.get("deliveries")).hasSize(1);
        assertThat(delivery.get("endpoint_id").asString())
                .isEqualTo(endpoint.get("id").asString());
        assertThat(delivery.get("endpoint_url").asString()).isEqualTo(CLOSED_PORT);
        assertThat(delivery.get("status").asString()).isEqualTo("pending");
        assertThat(delivery.get("attempts").asInt()).isEqualTo(1);
        assertThat(delivery.has("last_attempt_at")).isTrue();
        assertThat(delivery.has("next_attempt_at")).isTrue();
        assertThat(delivery.has("last_status_code")).isFalse();
        // The delivery's id leads to the delivery route, where its attempt log is.
        JsonNode full = get(
                        merchant, "/webhook-deliveries/" + delivery.get("id").asString())
                .get("data");
        assertThat(full.get("event_id").asString()).isEqualTo(completed);

        JsonNode one = get(merchant, "/events/" + otherCreated);
        assertThat(one.get("message").asString()).isEqualTo("Event retrieved");
        assertThat(one.get("data").get("object_id").asString()).isEqualTo(other);
        assertThat(one.get("data").get("deliveries")).hasSize(1);
        assertThat(ids(get(merchant, "/events").get("data").get("data")))
                .containsExactly(completed, otherCreated, created);
    }

    @Test
    void typeAndTimeFiltersNarrowTheList() {
        MerchantIdentity merchant = newMerchant();
        String link = UUID.randomUUID().toString();
        String created = publishAbout(merchant, "payment.created", link);
        Instant between = clock.instant().plusMillis(500);
        String completed = publishAbout(merchant, "payment.completed", link);

        assertThat(ids(get(merchant, "/events?type=payment.created").get("data").get("data")))
                .containsExactly(created);
        assertThat(ids(get(merchant, "/events?created_from=" + between)
                        .get("data")
                        .get("data")))
                .containsExactly(completed);
        assertThat(ids(get(merchant, "/events?created_to=" + between)
                        .get("data")
                        .get("data")))
                .containsExactly(created);
        // An event with no deliveries (no endpoint was subscribed) is listed with none.
        assertThat(get(merchant, "/events/" + created).get("data").get("deliveries"))
                .isEmpty();
    }

    @Test
    void pagesLikeTheDeliveryList() {
        MerchantIdentity merchant = newMerchant();
        String link = UUID.randomUUID().toString();
        List<String> published = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            published.add(publishAbout(merchant, "payment.pending", link));
        }

        JsonNode page =
                get(merchant, "/events?object_id=" + link + "&limit=2&page=2").get("data");

        assertThat(ids(page.get("data"))).containsExactly(published.get(2), published.get(1));
        JsonNode pagination = page.get("pagination");
        assertThat(pagination.get("current_page").asInt()).isEqualTo(2);
        assertThat(pagination.get("per_page").asInt()).isEqualTo(2);
        assertThat(pagination.get("total_pages").asLong()).isEqualTo(3);
        assertThat(pagination.get("total_records").asLong()).isEqualTo(5);
        assertThat(pagination.get("has_next_page").asBoolean()).isTrue();
        assertThat(pagination.get("has_prev_page").asBoolean()).isTrue();
        assertThat(get(merchant, "/events?object_id=" + link + "&limit=2&page=4")
                        .get("data")
                        .get("data"))
                .isEmpty();
    }

    @Test
    void anotherMerchantsOrModesEventsAreNeverShown() {
        MerchantIdentity owner = newMerchant();
        register(owner, CLOSED_PORT, List.of("payment.created"));
        String link = UUID.randomUUID().toString();
        String event = publishAbout(owner, "payment.created", link);
        await("delivery", () -> deliveriesOfEvent(event) == 1);
        MerchantIdentity stranger = newMerchant();
        MerchantIdentity ownerLive = new MerchantIdentity(owner.merchantId(), Mode.LIVE);

        for (MerchantIdentity other : List.of(stranger, ownerLive)) {
            JsonNode notFound = read(as(other, HttpMethod.GET, "/events/" + event)
                    .exchange()
                    .expectStatus()
                    .isNotFound());
            assertThat(notFound.get("code").asString()).isEqualTo("not_found");
            assertThat(notFound.get("message").asString()).isEqualTo("Event not found");
            JsonNode page = get(other, "/events?object_id=" + link).get("data");
            assertThat(page.get("data")).isEmpty();
            assertThat(page.get("pagination").get("total_records").asLong()).isZero();
            assertThat(get(other, "/events").get("data").get("data")).isEmpty();
        }
        assertThat(ids(get(owner, "/events?object_id=" + link).get("data").get("data")))
                .containsExactly(event);
    }

    @Test
    void badFiltersAre400sNamingEveryParameter() {
        MerchantIdentity merchant = newMerchant();

        JsonNode problem = badRequest(
                merchant, "/events?object_id=link-1&type=payment.unknown&limit=101&page=0&created_from=yesterday");
        assertThat(problem.get("code").asString()).isEqualTo("validation_failed");
        List<String> fields = new ArrayList<>();
        problem.get("errors").forEach(error -> fields.add(error.get("field").asString()));
        assertThat(fields).containsExactlyInAnyOrder("object_id", "type", "limit", "page", "created_from");

        assertThat(badRequest(merchant, "/events?created_from=2026-03-02&created_to=2026-03-01")
                        .get("errors")
                        .get(0)
                        .get("message")
                        .asString())
                .isEqualTo("created_from must not be after created_to");
        assertThat(badRequest(merchant, "/events?limit=0")
                        .get("errors")
                        .get(0)
                        .get("field")
                        .asString())
                .isEqualTo("limit");
        assertThat(badRequest(merchant, "/events?created_to=99999-01-01")
                        .get("code")
                        .asString())
                .isEqualTo("validation_failed");
        JsonNode invalidId = badRequest(merchant, "/events/not-a-uuid");
        assertThat(invalidId.get("code").asString()).isEqualTo("invalid_id");
        assertThat(invalidId.get("message").asString()).isEqualTo("Invalid event id: must be a UUID");
    }
}
