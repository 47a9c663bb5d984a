package dev.cryptopay.webhooks.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.webhooks.WebhookTestBase;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

class EndpointRoutesTest extends WebhookTestBase {

    private WebTestClient.ResponseSpec create(MerchantIdentity merchant, Object body) {
        return as(merchant, HttpMethod.POST, "/webhook-endpoints")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body instanceof String text ? text : json.writeValueAsString(body))
                .exchange();
    }

    @Test
    void createAnswersTheEndpointWithItsSecretOnce() {
        MerchantIdentity merchant = newMerchant();
        JsonNode response = read(create(
                        merchant,
                        Map.of(
                                "url",
                                "https://shop.example/hooks",
                                "events",
                                List.of("payment.completed", "payment.failed"),
                                "description",
                                "Main"))
                .expectStatus()
                .isCreated());

        assertThat(response.get("message").asString()).isEqualTo("Webhook endpoint created");
        JsonNode endpoint = response.get("data");
        assertThat(endpoint.get("id").asString()).matches("[0-9a-f-]{36}");
        assertThat(endpoint.get("url").asString()).isEqualTo("https://shop.example/hooks");
        assertThat(endpoint.get("events"))
                .extracting(JsonNode::asString)
                .containsExactly("payment.completed", "payment.failed");
        assertThat(endpoint.get("description").asString()).isEqualTo("Main");
        assertThat(endpoint.get("enabled").asBoolean()).isTrue();
        assertThat(endpoint.get("livemode").asBoolean()).isFalse();
        assertThat(endpoint.get("secret").asString()).matches("whsec_[A-Za-z0-9+/]{43}=");

        JsonNode read = read(as(
                                merchant,
                                HttpMethod.GET,
                                "/webhook-endpoints/" + endpoint.get("id").asString())
                        .exchange()
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(read.has("secret")).isFalse();
        JsonNode list = read(as(merchant, HttpMethod.GET, "/webhook-endpoints")
                .exchange()
                .expectStatus()
                .isOk());
        assertThat(list.get("data")).hasSize(1);
        assertThat(list.get("data").get(0).has("secret")).isFalse();
    }

    @Test
    void secretIsStoredEncrypted() {
        MerchantIdentity merchant = newMerchant();
        JsonNode endpoint = read(create(
                                merchant, Map.of("url", "https://shop.example/h", "events", List.of("payment.created")))
                        .expectStatus()
                        .isCreated())
                .get("data");
        byte[] stored = database.sql("SELECT secret_encrypted FROM webhook_endpoint WHERE id = :id")
                .bind("id", UUID.fromString(endpoint.get("id").asString()))
                .map(row -> row.get(0, byte[].class))
                .one()
                .block();
        assertThat(new String(stored, java.nio.charset.StandardCharsets.ISO_8859_1))
                .doesNotContain(endpoint.get("secret").asString().substring(6, 20));
    }

    @Test
    void refusesUnknownEventTypesAndBadUrls() {
        MerchantIdentity test = newMerchant();
        MerchantIdentity live = new MerchantIdentity(UUID.randomUUID(), Mode.LIVE);
        expectError(
                test,
                Map.of("url", "https://a.example", "events", List.of("payment.done")),
                "events",
                "Unknown event type: payment.done");
        expectError(
                test,
                Map.of("url", "https://a.example", "events", List.of()),
                "events",
                "events must be a non-empty array of event types");
        expectError(test, Map.of("url", "https://a.example"), "events", "events is required");
        expectError(
                test,
                Map.of("url", "ftp://a.example", "events", List.of("payment.created")),
                "url",
                "url must be a valid absolute http(s) URL");
        expectError(
                test,
                Map.of("url", "https://user:pw@a.example", "events", List.of("payment.created")),
                "url",
                "url must not contain credentials");
        expectError(
                live,
                Map.of("url", "http://a.example/hook", "events", List.of("payment.created")),
                "url",
                "url must use https in live mode");
        expectError(
                test,
                Map.of("url", "https://a.example", "events", List.of("payment.created"), "secret", "x"),
                "secret",
                "Unknown field: secret");
        create(test, Map.of("url", "http://a.example/hook", "events", List.of("payment.created")))
                .expectStatus()
                .isCreated();
        create(live, Map.of("url", "https://a.example/hook", "events", List.of("payment.created")))
                .expectStatus()
                .isCreated();
    }

    @Test
    void acceptsEverySpecifiedEventType() {
        List<String> all = List.of(
                "payment.created",
                "payment.pending",
                "payment.completed",
                "payment.failed",
                "payment.refunded",
                "transfer.initiated",
                "transfer.completed",
                "transfer.failed",
                "wallet.deposit",
                "wallet.withdrawal",
                "subscription.created",
                "subscription.activated",
                "subscription.paused",
                "subscription.cancelled",
                "subscription.payment.success",
                "subscription.payment.failed",
                "subscription.expiring");
        JsonNode endpoint = read(create(newMerchant(), Map.of("url", "https://a.example", "events", all))
                        .expectStatus()
                        .isCreated())
                .get("data");
        assertThat(endpoint.get("events")).hasSize(17);
    }

    @Test
    void deleteRemovesTheEndpointForItsMerchantOnly() {
        MerchantIdentity owner = newMerchant();
        String id = read(create(owner, Map.of("url", "https://a.example", "events", List.of("payment.created")))
                        .expectStatus()
                        .isCreated())
                .get("data")
                .get("id")
                .asString();
        MerchantIdentity stranger = newMerchant();

        as(stranger, HttpMethod.GET, "/webhook-endpoints/" + id)
                .exchange()
                .expectStatus()
                .isNotFound();
        as(stranger, HttpMethod.DELETE, "/webhook-endpoints/" + id)
                .exchange()
                .expectStatus()
                .isNotFound();
        as(new MerchantIdentity(owner.merchantId(), Mode.LIVE), HttpMethod.GET, "/webhook-endpoints/" + id)
                .exchange()
                .expectStatus()
                .isNotFound();

        JsonNode deleted = read(as(owner, HttpMethod.DELETE, "/webhook-endpoints/" + id)
                .exchange()
                .expectStatus()
                .isOk());
        assertThat(deleted.get("message").asString()).isEqualTo("Webhook endpoint deleted");
        as(owner, HttpMethod.GET, "/webhook-endpoints/" + id)
                .exchange()
                .expectStatus()
                .isNotFound();
        as(owner, HttpMethod.DELETE, "/webhook-endpoints/" + id)
                .exchange()
                .expectStatus()
                .isNotFound();
        as(owner, HttpMethod.GET, "/webhook-endpoints/not-a-uuid")
                .exchange()
                .expectStatus()
                .isBadRequest();
    }

    @Test
    void rotatingTheSecretReturnsANewOne() {
        MerchantIdentity merchant = newMerchant();
        JsonNode endpoint = read(create(
                                merchant, Map.of("url", "https://a.example", "events", List.of("payment.created")))
                        .expectStatus()
                        .isCreated())
                .get("data");
        JsonNode rotated = read(as(
                                merchant,
                                HttpMethod.POST,
                                "/webhook-endpoints/" + endpoint.get("id").asString() + "/rotate-secret")
                        .exchange()
                        .expectStatus()
                        .isOk())
                .get("data");
        assertThat(rotated.get("secret").asString())
                .startsWith("whsec_")
                .isNotEqualTo(endpoint.get("secret").asString());
    }

    @Test
    void limitsEndpointsPerMerchantAndMode() {
        MerchantIdentity merchant = newMerchant();
        for (int i = 0; i < 20; i++) {
            create(merchant, Map.of("url", "https://a.example/" + i, "events", List.of("payment.created")))
                    .expectStatus()
                    .isCreated();
        }
        JsonNode error =
                read(create(merchant, Map.of("url", "https://a.example/x", "events", List.of("payment.created")))
                        .expectStatus()
                        .isEqualTo(409));
        assertThat(error.get("code").asString()).isEqualTo("endpoint_limit_reached");
    }

    private void expectError(MerchantIdentity merchant, Map<String, Object> body, String field, String message) {
        JsonNode error = read(create(merchant, body).expectStatus().isBadRequest());
        assertThat(error.get("message").asString()).as(body.toString()).isEqualTo(message);
        assertThat(error.get("errors").get(0).get("field").asString()).isEqualTo(field);
    }
}
