package dev.cryptopay.gateway.admin;

import static dev.cryptopay.gateway.support.TestEnvironment.ADMIN_TOKEN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.gateway.keys.LastUsedRecorder;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/** Issuing, listing and revoking publishable keys through the admin API. */
class PublishableKeyAdminTest extends GatewayTestBase {

    @Autowired
    LastUsedRecorder lastUsed;

    @Test
    void issuesAPublishableKeyPerModeAndListsItInFullBesideTheApiKeys() {
        MerchantKey key = admin.newMerchantKey();
        JsonNode created =
                json(admin.post("/admin/merchants/" + key.merchantId() + "/publishable_keys", Map.of("mode", "live"))
                        .expectStatus()
                        .isCreated());
        String publishable = created.get("publishable_key").stringValue();
        assertThat(publishable).matches("pk_live_[A-Z2-7]{32}");
        assertThat(created.get("mode").stringValue()).isEqualTo("live");
        assertThat(created.get("status").stringValue()).isEqualTo("active");
        assertThat(created.get("merchant_id").stringValue())
                .isEqualTo(key.merchantId().toString());

        JsonNode keys = admin.keys(key.merchantId());
        assertThat(keys.at("/keys/0/api_key_prefix").stringValue()).isEqualTo(key.prefix());
        assertThat(keys.get("publishable_keys")).hasSize(1);
        JsonNode listed = keys.get("publishable_keys").get(0);
        assertThat(listed.get("publishable_key").stringValue()).isEqualTo(publishable);
        assertThat(listed.get("mode").stringValue()).isEqualTo("live");
        assertThat(listed.get("status").stringValue()).isEqualTo("active");
        assertThat(listed.get("created_at").stringValue()).isNotBlank();
        assertThat(listed.get("revoked_at").isNull()).isTrue();
        assertThat(keys.toString()).doesNotContain(key.apiKey());
    }

    @Test
    void revokesAPublishableKeyThroughTheKeysRouteIdempotentlyAndAtOnce() {
        MerchantKey key = admin.newMerchantKey();
        String publishable = admin.newPublishableKey(key.merchantId(), Mode.TEST);
        pay(publishable).expectStatus().isOk();
        admin.revoke(publishable);
        admin.revoke(publishable);
        pay(publishable).expectStatus().isUnauthorized();
        JsonNode listed = admin.keys(key.merchantId()).get("publishable_keys").get(0);
        assertThat(listed.get("status").stringValue()).isEqualTo("revoked");
        assertThat(listed.get("revoked_at").stringValue()).isNotBlank();
        assertThat(admin.keys(key.merchantId()).at("/keys/0/status").stringValue())
                .as("the API key is untouched")
                .isEqualTo("active");
    }

    @Test
    void recordsWhenAPublishableKeyWasLastUsed() {
        MerchantKey key = admin.newMerchantKey();
        String publishable = admin.newPublishableKey(key.merchantId(), Mode.TEST);
        assertThat(admin.keys(key.merchantId())
                        .at("/publishable_keys/0/last_used_at")
                        .isNull())
                .isTrue();
        pay(publishable).expectStatus().isOk();
        lastUsed.flush().block(Duration.ofSeconds(5));
        assertThat(admin.keys(key.merchantId())
                        .at("/publishable_keys/0/last_used_at")
                        .stringValue())
                .isNotBlank();
    }

    @Test
    void refusesUnknownMerchantBadModeAndUnknownOrMalformedKeys() {
        admin.post("/admin/merchants/" + UUID.randomUUID() + "/publishable_keys", Map.of("mode", "test"))
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("not_found");
        JsonNode merchant = admin.createMerchant("BadMode");
        admin.post("/admin/merchants/" + merchant.get("id").stringValue() + "/publishable_keys", Map.of("mode", "prod"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid_mode");
        delete("/admin/keys/pk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
                .expectStatus()
                .isNotFound();
        delete("/admin/keys/pk_test_short")
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("malformed_api_key")
                .jsonPath("$.message")
                .value(message -> assertThat((String) message).contains("pk_test_", "mk_test_"));
    }

    private WebTestClient.ResponseSpec delete(String path) {
        return admin.client()
                .delete()
                .uri(path)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + ADMIN_TOKEN)
                .exchange();
    }

    private WebTestClient.ResponseSpec pay(String merchantKey) {
        return client.post()
                .uri(baseUrl() + "/api/v1/public/subscriptions/link/payment")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"merchant_key\":\"" + merchantKey + "\"}")
                .exchange();
    }
}
