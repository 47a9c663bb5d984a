package dev.cryptopay.deploy;

import dev.cryptopay.auth.Mode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The gateway's admin API (Bearer token): merchants, API keys and publishable keys (gateway/README.md "Admin API"). */
final class AdminClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final String adminUrl;
    private final String token;

    AdminClient(String adminUrl, String token) {
        this.adminUrl = adminUrl;
        this.token = token;
    }

    String createMerchant(String name, String email) {
        return call("POST", "/admin/merchants", Map.of("name", name, "email", email), 201)
                .get("id")
                .asString();
    }

    /** A gateway-generated Ed25519 pair and API key, without a publishable key. */
    SandboxCredentials createKey(String merchantId, Mode mode) {
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

    String createPublishableKey(String merchantId, Mode mode) {
        return call(
                        "POST",
                        "/admin/merchants/" + merchantId + "/publishable_keys",
                        Map.of("mode", mode.wireName()),
                        201)
                .get("publishable_key")
                .asString();
    }

    List<String> activePublishableKeys(String merchantId, Mode mode) {
        List<String> keys = new ArrayList<>();
        for (JsonNode key : call("GET", "/admin/merchants/" + merchantId + "/keys", null, 200)
                .path("publishable_keys")) {
            if ("active".equals(key.path("status").asString())
                    && mode.wireName().equals(key.path("mode").asString())) {
                keys.add(key.get("publishable_key").asString());
            }
        }
        return keys;
    }

    /** Whether the merchant exists: its keys answer 200, not 404 (or 400 for an id that is no UUID). */
    boolean merchantExists(String merchantId) {
        HttpResponse<String> response = send("GET", "/admin/merchants/" + merchantId + "/keys", null);
        if (response.statusCode() == 404 || response.statusCode() == 400) {
            return false;
        }
        check("GET", "/admin/merchants/" + merchantId + "/keys", response, 200);
        return true;
    }

    private JsonNode call(String method, String path, Map<String, String> body, int expected) {
        HttpResponse<String> response = send(method, path, body == null ? null : JSON.writeValueAsString(body));
        check(method, path, response, expected);
        return JSON.readTree(response.body());
    }

    private static void check(String method, String path, HttpResponse<String> response, int expected) {
        if (response.statusCode() != expected) {
            throw new StackStartException("The gateway's admin API answered " + method + " " + path + " with HTTP "
                    + response.statusCode() + ": " + response.body() + ". See the gateway's log.");
        }
    }

    private HttpResponse<String> send(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(adminUrl + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
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
}
