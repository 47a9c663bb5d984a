package dev.cryptopay.gateway.signup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.RsaKeyPairs;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.gateway.support.GatewayInstance;
import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /api/v1/signup}: off by default (the shared test gateway: an unknown route), and on a gateway with
 * {@code gateway.signup.enabled=true} a merchant with a test key bound to its own public key, its publishable key,
 * validation naming every refused field, and a limit per client address.
 */
class SignupTest extends GatewayTestBase {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static GatewayInstance enabled;

    @BeforeAll
    static void startGatewayWithSignup() {
        enabled = GatewayInstance.start(
                Map.of("gateway.signup.enabled", "true", "gateway.rate-limit.limits.signup", "3"));
    }

    @AfterAll
    static void stop() {
        enabled.close();
    }

    @Test
    void isAnUnknownRouteUnlessTheOperatorTurnsItOn() {
        SigningKey key = newKey();
        signUp(
                        client,
                        "10.0.0.1",
                        body("Acme", "ops@acme.test", key.verificationKey().toPem()))
                .expectStatus()
                .isNotFound()
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("not_found");
        assertThat(dashboardPage(client)).contains("<meta name=\"cryptopay-signup\" content=\"disabled\">");
        assertThat(dashboardPage(enabled.client())).contains("<meta name=\"cryptopay-signup\" content=\"enabled\">");
    }

    @Test
    void makesAMerchantWhoseOwnKeySignsAtOnce() {
        SigningKey key = newKey();
        JsonNode created = JSON.readTree(signUp(
                        enabled.client(),
                        "10.0.1.1",
                        body(
                                " Café ☕ ",
                                " cafe@example.com ",
                                key.verificationKey().toPem()))
                .expectStatus()
                .isCreated()
                .expectBody()
                .returnResult()
                .getResponseBody());
        assertThat(created.get("mode").asString()).isEqualTo("test");
        assertThat(created.get("name").asString()).isEqualTo("Café ☕");
        assertThat(created.get("email").asString()).isEqualTo("cafe@example.com");
        assertThat(created.get("api_key").asString()).matches("mk_test_[A-Z2-7]{32}");
        assertThat(created.get("publishable_key").asString()).matches("pk_test_[A-Z2-7]{32}");
        assertThat(created.has("private_key")).isFalse();

        MerchantKey merchant = new MerchantKey(
                UUID.fromString(created.get("merchant_id").asString()),
                created.get("api_key").asString(),
                Mode.TEST,
                key);
        JsonNode account = JSON.readTree(SignedRequest.of("GET", "/account")
                .send(enabled.client(), enabled.baseUrl(), merchant)
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
        assertThat(account.get("merchant_id").asString())
                .isEqualTo(merchant.merchantId().toString());
        assertThat(account.get("name").asString()).isEqualTo("Café ☕");
        JsonNode keys = enabled.admin().keys(merchant.merchantId());
        assertThat(keys.get("keys")).hasSize(1);
        assertThat(keys.at("/keys/0/mode").asString()).isEqualTo("test");
        assertThat(keys.at("/publishable_keys/0/publishable_key").asString())
                .isEqualTo(created.get("publishable_key").asString());
        // A test account: live keys wait for production access.
        SignedRequest.of("POST", "/account/keys")
                .body("{\"mode\":\"live\"}")
                .send(enabled.client(), enabled.baseUrl(), merchant)
                .expectStatus()
                .isForbidden();
    }

    @Test
    void refusesBadSignUpsNamingEveryField() {
        JsonNode problem = JSON.readTree(signUp(enabled.client(), "10.0.2.1", "{\"email\":\"nope\",\"extra\":true}")
                .expectStatus()
                .isBadRequest()
                .expectHeader()
                .contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody()
                .returnResult()
                .getResponseBody());
        assertThat(problem.get("code").asString()).isEqualTo("validation_failed");
        assertThat(problem.get("request_id").asString()).isNotBlank();
        assertThat(problem.get("errors").findValuesAsString("field"))
                .containsExactlyInAnyOrder("extra", "name", "email", "public_key");

        String rsa = SigningKey.parse(RsaKeyPairs.generate(RANDOM, 2048).privateKeyPem())
                .verificationKey()
                .toPem();
        for (String publicKey : new String[] {rsa, "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----", "x"}) {
            JsonNode refused = JSON.readTree(signUp(enabled.client(), "10.0.2.2", body("Acme", "a@b.test", publicKey))
                    .expectStatus()
                    .isBadRequest()
                    .expectBody()
                    .returnResult()
                    .getResponseBody());
            assertThat(refused.get("code").asString()).isEqualTo("invalid_public_key");
            assertThat(refused.get("errors").findValuesAsString("field")).containsExactly("public_key");
        }
        signUp(enabled.client(), "10.0.2.3", "not json").expectStatus().isBadRequest();
    }

    @Test
    void isLimitedPerClientAddress() {
        String body =
                body("Flood", "flood@example.com", newKey().verificationKey().toPem());
        for (int i = 0; i < 3; i++) {
            signUp(enabled.client(), "10.0.3.1", body).expectStatus().isCreated();
        }
        signUp(enabled.client(), "10.0.3.1", body)
                .expectStatus()
                .isEqualTo(429)
                .expectHeader()
                .exists("Retry-After")
                .expectBody()
                .jsonPath("$.code")
                .isEqualTo("rate_limited");
        signUp(enabled.client(), "10.0.3.2", body).expectStatus().isCreated();
    }

    private static WebTestClient.ResponseSpec signUp(WebTestClient to, String clientAddress, String body) {
        return to.post()
                .uri("/api/v1/signup")
                .header("X-Forwarded-For", clientAddress)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body)
                .exchange();
    }

    private static String dashboardPage(WebTestClient to) {
        return to.get()
                .uri("/dashboard")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody(String.class)
                .returnResult()
                .getResponseBody();
    }

    private static String body(String name, String email, String publicKey) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("email", email);
        body.put("public_key", publicKey);
        return JSON.writeValueAsString(body);
    }

    private static SigningKey newKey() {
        return SigningKey.parse(Ed25519KeyPairs.generate(RANDOM).privateKeyPem());
    }
}
