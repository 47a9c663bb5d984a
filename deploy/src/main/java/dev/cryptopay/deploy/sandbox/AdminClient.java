package dev.cryptopay.deploy.sandbox;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.deploy.SandboxCredentials;
import dev.cryptopay.deploy.StackStartException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The gateway's admin API (Bearer token): merchants, API keys and publishable keys. See gateway/README.md "Admin API".
 */
public final class AdminClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final String adminUrl;
    private final String token;

    public AdminClient(String adminUrl, String token) {
        this.adminUrl = adminUrl;
        this.token = token;
    }

    /** {@code POST /admin/merchants} → the new merchant's id. */
    public String createMerchant(String name, String email) {
        JsonNode merchant = call("POST", "/admin/merchants", Map.of("name", name, "email", email), 201);
        return merchant.get("id").asString();
    }

    /**
     * {@code POST /admin/merchants/{id}/keys}: a gateway-generated Ed25519 pair and API key (without a publishable
     * key; see {@link #createPublishableKey}).
     */
    public SandboxCredentials createKey(String merchantId, Mode mode) {
        JsonNode key = call("POST", "/admin/merchants/" + merchantId + "/keys", Map.of("mode", mode.wireName()), 201);
        return new SandboxCredentials(
                merchantId,
                key.get("api_key").asString(),
                null,
                key.get("private_key").asString(),
                key.get("private_key_pem").asString(),
                null,
                mode);
    }

    /** {@code POST /admin/merchants/{id}/publishable_keys} → the new {@code pk_…} key. */
    public String createPublishableKey(String merchantId, Mode mode) {
        JsonNode key = call(
                "POST", "/admin/merchants/" + merchantId + "/publishable_keys", Map.of("mode", mode.wireName()), 201);
        return key.get("publishable_key").asString();
    }

    /** The merchant's active publishable keys of this mode ({@code GET /admin/merchants/{id}/keys}). */
    public List<String> activePublishableKeys(String merchantId, Mode mode) {
        String path = "/admin/merchants/" + merchantId + "/keys";
        HttpResponse<String> response = send("GET", path, null);
        if (response.statusCode() != 200) {
            throw unexpected("GET", path, response);
        }
        List<String> keys = new ArrayList<>();
        for (JsonNode key : JSON.readTree(response.body()).path("publishable_keys")) {
            if ("active".equals(key.path("status").asString())
                    && mode.wireName().equals(key.path("mode").asString())) {
                keys.add(key.get("publishable_key").asString());
            }
        }
        return keys;
    }

    /** Whether the merchant exists ({@code GET /admin/merchants/{id}/keys} answers 200, not 404). */
    public boolean merchantExists(String merchantId) {
        HttpResponse<String> response = send("GET", "/admin/merchants/" + merchantId + "/keys", null);
        if (response.statusCode() == 200) {
            return true;
        }
        if (response.statusCode() == 404 || response.statusCode() == 400) {
            return false;
        }
        throw unexpected("GET", "/admin/merchants/" + merchantId + "/keys", response);
    }

    private JsonNode call(String method, String path, Map<String, String> body, int expected) {
        HttpResponse<String> response = send(method, path, JSON.writeValueAsString(body));
        if (response.statusCode() != expected) {
            throw unexpected(method, path, response);
        }
        return JSON.readTree(response.body());
    }

    private HttpResponse<String> send(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(adminUrl + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new StackStartException(
                    "The gateway's admin API at " + adminUrl + " did not answer " + method + " " + path + ": "
                            + e.getMessage() + ". See the gateway's log.",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackStartException("interrupted while calling the admin API");
        }
    }

    private StackStartException unexpected(String method, String path, HttpResponse<String> response) {
        return new StackStartException("The gateway's admin API answered " + method + " " + path + " with HTTP "
                + response.statusCode() + ": " + response.body() + ". See the gateway's log.");
    }
}
