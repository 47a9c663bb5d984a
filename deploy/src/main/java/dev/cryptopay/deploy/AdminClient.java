package dev.cryptopay.deploy;

import dev.cryptopay.auth.Mode;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The gateway's admin API (Bearer token): merchants, API keys and publishable keys (gateway/README.md "Admin API"), and
 * the sandbox merchant made with it.
 */
final class AdminClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String SANDBOX_NAME = "Local sandbox";
    private static final String SANDBOX_EMAIL = "sandbox@example.com";

    private final String adminUrl;
    private final String token;

    AdminClient(String adminUrl, String token) {
        this.adminUrl = adminUrl;
        this.token = token;
    }

    /**
     * The sandbox merchant: created with a test-mode Ed25519 key and a test-mode publishable key on the first run, saved
     * in {@code sandbox.env} and {@code sandbox-key.pem}, and reused afterwards as long as the gateway accepts its key
     * (checked with a signed {@code GET /account}). A key or merchant the database no longer knows is replaced; so is a
     * publishable key that is no longer active (or missing, in a data directory from before publishable keys).
     */
    SandboxCredentials ensureSandboxMerchant(StackFiles files, String baseUrl, StackConsole console) {
        Map<String, String> saved = EnvFile.read(files.sandboxFile);
        String merchantId = saved.get("MERCHANT_ID");
        SandboxCredentials key;
        if (merchantId == null || !saved.containsKey("API_KEY") || !saved.containsKey("PRIVATE_KEY")) {
            key = createKey(createMerchant(SANDBOX_NAME, SANDBOX_EMAIL), Mode.TEST);
            console.say("sandbox merchant " + key.merchantId() + " created");
        } else {
            key = new SandboxCredentials(merchantId, saved.get("API_KEY"), null, saved.get("PRIVATE_KEY"));
            HttpResponse<String> account = new SignedClient(baseUrl, key).get("/account");
            if (account.statusCode() == 200) {
                console.say("sandbox merchant " + merchantId + " reused");
            } else if (account.statusCode() != 401) {
                throw new StackStartException("The gateway answered GET /api/v1/account with HTTP "
                        + account.statusCode() + " for the saved sandbox key: " + account.body() + ". See "
                        + StackConsole.path(files.serviceLog(StackService.GATEWAY.serviceName)) + ".");
            } else if (merchantExists(merchantId)) {
                console.say("the saved sandbox key is no longer accepted; creating a new test key for merchant "
                        + merchantId);
                key = createKey(merchantId, Mode.TEST);
            } else {
                console.say("the saved sandbox merchant is not in the database (was it reset?); creating a new one");
                key = createKey(createMerchant(SANDBOX_NAME, SANDBOX_EMAIL), Mode.TEST);
            }
        }
        String publishable = saved.get("PUBLISHABLE_KEY");
        if (publishable == null
                || !activePublishableKeys(key.merchantId(), Mode.TEST).contains(publishable)) {
            publishable = createPublishableKey(key.merchantId(), Mode.TEST);
        }
        SandboxCredentials result = key.withPublishableKey(publishable);
        EnvFile.writePrivate(files.sandboxKeyPem, result.privateKeyPem());
        Map<String, String> values = new LinkedHashMap<>();
        values.put("MERCHANT_ID", result.merchantId());
        values.put("API_KEY", result.apiKey());
        values.put("PUBLISHABLE_KEY", result.publishableKey());
        values.put("PRIVATE_KEY", result.privateKey());
        EnvFile.write(files.sandboxFile, values);
        return result;
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
                key.get("private_key").asString());
    }

    String createPublishableKey(String merchantId, Mode mode) {
        String path = "/admin/merchants/" + merchantId + "/publishable_keys";
        return call("POST", path, Map.of("mode", mode.wireName()), 201)
                .get("publishable_key")
                .asString();
    }

    List<String> activePublishableKeys(String merchantId, Mode mode) {
        return call("GET", "/admin/merchants/" + merchantId + "/keys", null, 200)
                .path("publishable_keys")
                .valueStream()
                .filter(key -> "active".equals(key.path("status").asString())
                        && mode.wireName().equals(key.path("mode").asString()))
                .map(key -> key.get("publishable_key").asString())
                .toList();
    }

    /** Whether the merchant exists: its keys answer 200, not 404 (or 400 for an id that is no UUID). */
    boolean merchantExists(String merchantId) {
        String path = "/admin/merchants/" + merchantId + "/keys";
        HttpResponse<String> response = send("GET", path, null);
        if (response.statusCode() == 404 || response.statusCode() == 400) {
            return false;
        }
        check("GET", path, response, 200);
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
            return SignedClient.exchange(request.build());
        } catch (UncheckedIOException e) {
            throw new StackStartException(
                    "The gateway's admin API did not answer: " + e.getMessage() + ". See the gateway's log.", e);
        }
    }
}
