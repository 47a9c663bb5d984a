package dev.cryptopay.gateway.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.keys.SigningKey;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Talks to a gateway's admin port the way an operator would. */
public final class AdminClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final WebTestClient client;

    public AdminClient(int adminPort) {
        this.client = WebTestClient.bindToServer()
                .baseUrl("http://127.0.0.1:" + adminPort)
                .responseTimeout(Duration.ofSeconds(15))
                .build();
    }

    public WebTestClient client() {
        return client;
    }

    public WebTestClient.ResponseSpec post(String path, Object body) {
        return client.post()
                .uri(path)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + TestEnvironment.ADMIN_TOKEN)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(JSON.writeValueAsBytes(body))
                .exchange();
    }

    public JsonNode createMerchant(String name) {
        byte[] body = post("/admin/merchants", Map.of("name", name, "email", "ops@" + name.toLowerCase() + ".test"))
                .expectStatus()
                .isCreated()
                .expectBody()
                .returnResult()
                .getResponseBody();
        return JSON.readTree(body);
    }

    /** A new merchant with a gateway-generated Ed25519 test key. */
    public MerchantKey newMerchantKey() {
        JsonNode merchant =
                createMerchant("Merchant" + UUID.randomUUID().toString().substring(0, 8));
        return newKey(UUID.fromString(merchant.get("id").stringValue()), Mode.TEST, null);
    }

    /** A key for the merchant; with {@code signingKey} its public key is registered, else one is generated. */
    public MerchantKey newKey(UUID merchantId, Mode mode, SigningKey signingKey) {
        Map<String, Object> request = new HashMap<>();
        request.put("mode", mode.wireName());
        if (signingKey != null) {
            request.put("public_key", signingKey.verificationKey().toPem());
        }
        byte[] body = post("/admin/merchants/" + merchantId + "/keys", request)
                .expectStatus()
                .isCreated()
                .expectBody()
                .returnResult()
                .getResponseBody();
        JsonNode created = JSON.readTree(body);
        String apiKey = created.get("api_key").stringValue();
        assertThat(apiKey).startsWith("mk_" + mode.wireName() + "_");
        SigningKey key = signingKey != null
                ? signingKey
                : SigningKey.parse(created.get("private_key").stringValue());
        return new MerchantKey(merchantId, apiKey, mode, key);
    }

    /** A new publishable key ({@code pk_…}) of the merchant, issued through {@code POST …/publishable_keys}. */
    public String newPublishableKey(UUID merchantId, Mode mode) {
        byte[] body = post("/admin/merchants/" + merchantId + "/publishable_keys", Map.of("mode", mode.wireName()))
                .expectStatus()
                .isCreated()
                .expectBody()
                .returnResult()
                .getResponseBody();
        String key = JSON.readTree(body).get("publishable_key").stringValue();
        assertThat(key).matches("pk_" + mode.wireName() + "_[A-Z2-7]{32}");
        return key;
    }

    /** {@code GET /admin/merchants/{id}/keys}. */
    public JsonNode keys(UUID merchantId) {
        return JSON.readTree(client.get()
                .uri("/admin/merchants/" + merchantId + "/keys")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + TestEnvironment.ADMIN_TOKEN)
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .returnResult()
                .getResponseBody());
    }

    /** Revokes an API key or a publishable key. */
    public void revoke(String apiKey) {
        client.delete()
                .uri("/admin/keys/" + apiKey)
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + TestEnvironment.ADMIN_TOKEN)
                .exchange()
                .expectStatus()
                .isNoContent();
    }
}
