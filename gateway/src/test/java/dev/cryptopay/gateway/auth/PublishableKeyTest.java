package dev.cryptopay.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Publishable keys ({@code pk_…}): accepted as {@code merchant_key} on the public payment call (with the key's own
 * merchant and mode), refused as {@code X-API-Key}; the secret API key still works in {@code merchant_key}.
 */
class PublishableKeyTest extends GatewayTestBase {

    private static final String PAYMENT = "/api/v1/public/subscriptions/link/payment";

    @Autowired
    MeterRegistry meters;

    @Test
    void publishableKeyNamesItsMerchantAndModeInMerchantKey() {
        for (Mode mode : Mode.values()) {
            UUID merchantId = UUID.fromString(
                    admin.createMerchant("Shop" + mode.wireName()).get("id").stringValue());
            String publishable = admin.newPublishableKey(merchantId, mode);
            JsonNode echo = json(pay(publishable).expectStatus().isOk());
            assertThat(echo.get("path").stringValue()).isEqualTo("/public/subscriptions/link/payment");
            assertThat(values(echo.get("headers"), "x-merchant-id")).containsExactly(merchantId.toString());
            assertThat(values(echo.get("headers"), "x-merchant-mode")).containsExactly(mode.wireName());
            assertThat(values(echo.get("headers"), "x-merchant-credential"))
                    .as("the service learns the merchant was only named, so it answers nothing of its account")
                    .containsExactly("publishable_key");
        }
    }

    @Test
    void publishableKeyIsRefusedAsApiKeyOnSignedRoutes() {
        MerchantKey key = admin.newMerchantKey();
        String publishable = admin.newPublishableKey(key.merchantId(), Mode.TEST);
        // Correctly signed with the merchant's private key: only the key type is wrong.
        JsonNode problem = json(SignedRequest.of("GET", "/payment_links")
                .apiKey(publishable)
                .send(client, baseUrl(), key)
                .expectStatus()
                .isUnauthorized());
        assertThat(problem.get("code").stringValue()).isEqualTo("publishable_key_not_allowed");
        assertThat(problem.get("message").stringValue())
                .contains("only as merchant_key")
                .doesNotContain(publishable);
        // Also without any signature: the key type is named before anything else is checked.
        SignedRequest.of("GET", "/account")
                .apiKey(publishable)
                .withoutSignature()
                .send(client, baseUrl(), key)
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("publishable_key_not_allowed");
    }

    @Test
    void revokedPublishableKeyIsRefusedLikeARevokedApiKey() {
        MerchantKey key = admin.newMerchantKey();
        String publishable = admin.newPublishableKey(key.merchantId(), Mode.TEST);
        pay(publishable).expectStatus().isOk();
        admin.revoke(publishable);
        pay(publishable)
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("api_key_revoked")
                .jsonPath("$.message")
                .isEqualTo("merchant_key has been revoked");
        // The merchant's API key is a different key and keeps working.
        SignedRequest.of("GET", "/payment_links")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk();
    }

    @Test
    void unknownPublishableKeyIsAnInvalidMerchantKey() {
        pay("pk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid_api_key")
                .jsonPath("$.message")
                .isEqualTo("Invalid merchant_key");
    }

    @Test
    void malformedMerchantKeyMessageNamesBothKeyTypes() {
        JsonNode problem = json(pay("pk_test_tooShort").expectStatus().isUnauthorized());
        assertThat(problem.get("code").stringValue()).isEqualTo("malformed_api_key");
        assertThat(problem.get("message").stringValue())
                .startsWith("Malformed merchant_key")
                .contains("pk_test_", "pk_live_", "mk_test_", "mk_live_");
    }

    @Test
    void apiKeyStillWorksAsMerchantKeyAndIsCountedAsDiscouraged() {
        MerchantKey key = admin.newMerchantKey();
        String publishable = admin.newPublishableKey(key.merchantId(), Mode.TEST);
        double before = meters.counter(SignatureAuthenticationFilter.API_KEY_AS_MERCHANT_KEY_METRIC)
                .count();
        JsonNode echo = json(pay(key.apiKey()).expectStatus().isOk());
        assertThat(values(echo.get("headers"), "x-merchant-id"))
                .containsExactly(key.merchantId().toString());
        assertThat(meters.counter(SignatureAuthenticationFilter.API_KEY_AS_MERCHANT_KEY_METRIC)
                        .count())
                .isEqualTo(before + 1);
        pay(publishable).expectStatus().isOk();
        assertThat(meters.counter(SignatureAuthenticationFilter.API_KEY_AS_MERCHANT_KEY_METRIC)
                        .count())
                .as("a publishable key is not counted")
                .isEqualTo(before + 1);
    }

    private WebTestClient.ResponseSpec pay(String merchantKey) {
        return client.post()
                .uri(baseUrl() + PAYMENT)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"merchant_key\":\"" + merchantKey + "\",\"tx_hash\":\"0xabc\"}")
                .exchange();
    }

    private static List<String> values(JsonNode headers, String name) {
        JsonNode node = headers.get(name);
        return node == null
                ? List.of()
                : node.valueStream().map(JsonNode::stringValue).toList();
    }
}
