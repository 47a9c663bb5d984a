package dev.cryptopay.gateway.admin;

import static dev.cryptopay.gateway.support.TestEnvironment.ADMIN_TOKEN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.gateway.keys.LastUsedRecorder;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

class AdminApiTest extends GatewayTestBase {

    @Autowired
    LastUsedRecorder lastUsed;

    @Test
    void refusesMissingAdminToken() {
        admin.client()
                .post()
                .uri("/admin/merchants")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\":\"X\",\"email\":\"x@x.test\"}")
                .exchange()
                .expectStatus()
                .isUnauthorized()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("admin_unauthorized");
    }

    @Test
    void refusesWrongAdminToken() {
        admin.client()
                .get()
                .uri("/admin/merchants/" + UUID.randomUUID() + "/keys")
                .header(HttpHeaders.AUTHORIZATION, "Bearer not-the-token-not-the-token-not")
                .exchange()
                .expectStatus()
                .isUnauthorized();
        admin.client()
                .delete()
                .uri("/admin/keys/mk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
                .header(HttpHeaders.AUTHORIZATION, "Basic Zm9vOmJhcg==")
                .exchange()
                .expectStatus()
                .isUnauthorized();
    }

    @Test
    void createsMerchantThenKeyThatSignsRequests() {
        JsonNode merchant = admin.createMerchant("Acme");
        assertThat(merchant.get("name").stringValue()).isEqualTo("Acme");
        assertThat(merchant.get("email").stringValue()).isEqualTo("ops@acme.test");
        assertThat(merchant.get("created_at").stringValue()).isNotBlank();
        byte[] body = admin.post(
                        "/admin/merchants/" + merchant.get("id").stringValue() + "/keys", Map.of("mode", "live"))
                .expectStatus()
                .isCreated()
                .expectBody()
                .returnResult()
                .getResponseBody();
        JsonNode created = json(body);
        assertThat(created.get("api_key").stringValue()).matches("mk_live_[A-Z2-7]{32}");
        assertThat(created.get("algorithm").stringValue()).isEqualTo("ed25519");
        assertThat(created.get("private_key_pem").stringValue()).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(created.get("private_key").stringValue()).startsWith("Ed25519:");
        MerchantKey key = new MerchantKey(
                UUID.fromString(merchant.get("id").stringValue()),
                created.get("api_key").stringValue(),
                dev.cryptopay.auth.Mode.LIVE,
                SigningKey.parse(created.get("private_key_pem").stringValue()));
        SignedRequest.of("GET", "/account")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.mode")
                .isEqualTo("live");
    }

    @Test
    void registersMerchantSuppliedPublicKeyWithoutReturningAPrivateKey() {
        var pair = Ed25519KeyPairs.generate(new SecureRandom());
        JsonNode merchant = admin.createMerchant("OwnKey");
        JsonNode created = json(admin.post(
                        "/admin/merchants/" + merchant.get("id").stringValue() + "/keys",
                        Map.of("mode", "test", "algorithm", "ed25519", "public_key", pair.publicKeyPem()))
                .expectStatus()
                .isCreated()
                .expectBody()
                .returnResult()
                .getResponseBody());
        assertThat(created.has("private_key")).isFalse();
        assertThat(created.has("private_key_pem")).isFalse();
        MerchantKey key = new MerchantKey(
                UUID.fromString(merchant.get("id").stringValue()),
                created.get("api_key").stringValue(),
                dev.cryptopay.auth.Mode.TEST,
                SigningKey.parse(pair.privateKeyPem()));
        SignedRequest.of("GET", "/payment_links")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk();
    }

    @Test
    void listsKeysWithoutSecretsAndShowsRevocationAndLastUse() {
        MerchantKey key = admin.newMerchantKey();
        SignedRequest.of("GET", "/payment_links")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk();
        lastUsed.flush().block(Duration.ofSeconds(5));
        admin.revoke(key.apiKey());
        byte[] body = admin.client()
                .get()
                .uri("/admin/merchants/" + key.merchantId() + "/keys")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + ADMIN_TOKEN)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody();
        String text = new String(body, java.nio.charset.StandardCharsets.UTF_8);
        assertThat(text).doesNotContain(key.apiKey()).doesNotContain("PRIVATE");
        JsonNode listed = json(body).get("keys").get(0);
        assertThat(listed.get("api_key_prefix").stringValue()).isEqualTo(key.prefix());
        assertThat(listed.get("mode").stringValue()).isEqualTo("test");
        assertThat(listed.get("algorithm").stringValue()).isEqualTo("ed25519");
        assertThat(listed.get("status").stringValue()).isEqualTo("revoked");
        assertThat(listed.get("created_at").stringValue()).isNotBlank();
        assertThat(listed.get("last_used_at").stringValue()).isNotBlank();
        assertThat(listed.get("revoked_at").stringValue()).isNotBlank();
    }

    @Test
    void doesNotWriteLastUsedOnTheRequestPath() {
        MerchantKey key = admin.newMerchantKey();
        lastUsed.flush().block(Duration.ofSeconds(5));
        SignedRequest.of("GET", "/payment_links")
                .send(client, baseUrl(), key)
                .expectStatus()
                .isOk();
        JsonNode before = json(admin.client()
                .get()
                .uri("/admin/merchants/" + key.merchantId() + "/keys")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + ADMIN_TOKEN)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
        assertThat(before.at("/keys/0/last_used_at").isNull()).isTrue();
        lastUsed.flush().block(Duration.ofSeconds(5));
        JsonNode after = json(admin.client()
                .get()
                .uri("/admin/merchants/" + key.merchantId() + "/keys")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + ADMIN_TOKEN)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
        assertThat(after.at("/keys/0/last_used_at").stringValue()).isNotBlank();
    }

    @Test
    void rejectsInvalidInputWith400() {
        admin.post("/admin/merchants", Map.of("name", "", "email", "not-an-email"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("validation_failed")
                .jsonPath("$.errors[0].field")
                .isEqualTo("name")
                .jsonPath("$.errors[1].field")
                .isEqualTo("email");
        JsonNode merchant = admin.createMerchant("Validation");
        String keys = "/admin/merchants/" + merchant.get("id").stringValue() + "/keys";
        admin.post(keys, Map.of("mode", "prod"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid_mode");
        admin.post(keys, Map.of("mode", "test", "algorithm", "rsa-pss-sha256"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("public_key_required");
        admin.post(
                        keys,
                        Map.of(
                                "mode",
                                "test",
                                "public_key",
                                "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"))
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid_public_key");
        admin.client()
                .post()
                .uri("/admin/merchants")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + ADMIN_TOKEN)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{not json")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("invalid_request");
    }

    @Test
    void answers404ForUnknownMerchantOrKey() {
        admin.post("/admin/merchants/" + UUID.randomUUID() + "/keys", Map.of("mode", "test"))
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("not_found");
        admin.client()
                .delete()
                .uri("/admin/keys/mk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + ADMIN_TOKEN)
                .exchange()
                .expectStatus()
                .isNotFound();
    }

    @Test
    void servesAdminOnlyOnItsOwnPort() {
        assertThat(adminServer.port()).isNotEqualTo(port);
        client.post()
                .uri(baseUrl() + "/admin/merchants")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + ADMIN_TOKEN)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\":\"X\",\"email\":\"x@x.test\"}")
                .exchange()
                .expectStatus()
                .isNotFound()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON);
        // …and the merchant routes do not exist on the admin port.
        admin.client().get().uri("/api/v1/account").exchange().expectStatus().isNotFound();
    }
}
