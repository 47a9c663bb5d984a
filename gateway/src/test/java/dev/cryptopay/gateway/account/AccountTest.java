package dev.cryptopay.gateway.account;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class AccountTest extends GatewayTestBase {

    @Test
    void describesTheCallingMerchantKeyAndItsLimits() {
        MerchantKey key = admin.newMerchantKey();
        JsonNode account = json(SignedRequest.of("GET", "/account")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-RateLimit-Limit", "60"));
        assertThat(account.get("merchant_id").stringValue())
                .isEqualTo(key.merchantId().toString());
        assertThat(account.get("name").stringValue()).startsWith("Merchant");
        assertThat(account.get("email").stringValue()).contains("@");
        assertThat(account.get("mode").stringValue()).isEqualTo("test");
        assertThat(account.get("api_key_prefix").stringValue()).isEqualTo(key.prefix());
        assertThat(account.get("created_at").stringValue()).isNotBlank();
        JsonNode limits = account.get("rate_limits");
        assertThat(limits.at("/payment_links_write/limit").asInt()).isEqualTo(10);
        assertThat(limits.at("/payment_links_read/limit").asInt()).isEqualTo(30);
        assertThat(limits.at("/payment_links_currencies/limit").asInt()).isEqualTo(60);
        assertThat(limits.at("/subscriptions_read/limit").asInt()).isEqualTo(60);
        assertThat(limits.at("/subscriptions_write/limit").asInt()).isEqualTo(30);
        assertThat(limits.at("/public_link_payment/limit").asInt()).isEqualTo(10);
        assertThat(limits.at("/public_link_payment_per_key/limit").asInt()).isEqualTo(300);
        assertThat(limits.at("/webhooks/limit").asInt()).isEqualTo(30);
        assertThat(limits.at("/account/limit").asInt()).isEqualTo(60);
        assertThat(limits.at("/account/period_seconds").asInt()).isEqualTo(60);
        assertThat(limits.has("public"))
                .as("per-IP limit is not a property of the key")
                .isFalse();
    }

    @Test
    void requiresASignature() {
        client.get()
                .uri(baseUrl() + "/api/v1/account")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("missing_api_key");
    }

    @Test
    void isOnlyAnsweredForGet() {
        MerchantKey key = admin.newMerchantKey();
        SignedRequest.of("POST", "/account")
                .body("{}")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isNotFound();
    }
}
