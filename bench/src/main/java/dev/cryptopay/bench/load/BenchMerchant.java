package dev.cryptopay.bench.load;

import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.auth.signature.AuthHeaders;
import dev.cryptopay.auth.signature.CanonicalRequest;
import dev.cryptopay.auth.signature.RequestSigner;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A merchant made for one benchmark run through the gateway's admin API, with several API keys. Requests are signed
 * in advance and must all differ (the replay guard stays on): each key has its own replay space, and within a key the
 * timestamps step by one millisecond, so {@code keys × 1000} distinct requests fit in each second of timestamps.
 */
final class BenchMerchant {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ISO_INSTANT;

    record Key(String apiKey, SigningKey signingKey) {}

    final UUID merchantId;
    final List<Key> keys;
    private final String baseUrl;
    private Instant nextTimestamp = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    private BenchMerchant(UUID merchantId, List<Key> keys, String baseUrl) {
        this.merchantId = merchantId;
        this.keys = keys;
        this.baseUrl = baseUrl;
    }

    static BenchMerchant create(String adminUrl, String adminToken, String baseUrl, int keyCount) {
        JsonNode merchant = admin(
                adminUrl,
                adminToken,
                "/admin/merchants",
                Map.of("name", "Bench " + UUID.randomUUID().toString().substring(0, 8), "email", "bench@example.com"));
        UUID id = UUID.fromString(merchant.get("id").asString());
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < keyCount; i++) {
            JsonNode key = admin(adminUrl, adminToken, "/admin/merchants/" + id + "/keys", Map.of("mode", "test"));
            keys.add(new Key(
                    key.get("api_key").asString(),
                    SigningKey.parse(key.get("private_key").asString())));
        }
        return new BenchMerchant(id, keys, baseUrl);
    }

    /**
     * {@code count} distinct signed requests through the gateway, signed now and built when taken; consecutive ones
     * use different keys. {@code path} is the path after {@code /api/v1}. Only the timestamp and the signature of each
     * are kept (about 120 bytes), so hundreds of thousands fit without the driver's garbage collector becoming part of
     * the measurement.
     */
    Signed signed(String method, String path, byte[] body, int count) {
        return signed(method, path, index -> body, count);
    }

    /**
     * As {@link #signed(String, String, byte[], int)}, each request with its own body; {@code bodies} is called again
     * when a request is taken, so it should be cheap and must answer the same bytes for the same index.
     */
    Signed signed(String method, String path, IntFunction<byte[]> bodies, int count) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        if (nextTimestamp.isBefore(now)) {
            nextTimestamp = now;
        }
        long firstMillis = nextTimestamp.toEpochMilli();
        String[] signatures = new String[count];
        for (int i = 0; i < count; i++) {
            String timestamp = MILLIS.format(Instant.ofEpochMilli(firstMillis + i / keys.size()));
            signatures[i] = RequestSigner.sign(
                    keys.get(i % keys.size()).signingKey(),
                    new CanonicalRequest(method, path, timestamp, bodies.apply(i)));
        }
        nextTimestamp = Instant.ofEpochMilli(firstMillis + count / keys.size() + 1);
        return new Signed(method, baseUrl + path, bodies, firstMillis, signatures);
    }

    /** Requests signed in advance; {@link #get(int)} builds the one with that index. */
    final class Signed {

        private final String method;
        private final String uri;
        private final IntFunction<byte[]> bodies;
        private final long firstMillis;
        private final String[] signatures;

        private Signed(String method, String uri, IntFunction<byte[]> bodies, long firstMillis, String[] signatures) {
            this.method = method;
            this.uri = uri;
            this.bodies = bodies;
            this.firstMillis = firstMillis;
            this.signatures = signatures;
        }

        int size() {
            return signatures.length;
        }

        HttpLoad.Request get(int index) {
            Key key = keys.get(index % keys.size());
            String timestamp = MILLIS.format(Instant.ofEpochMilli(firstMillis + index / keys.size()));
            byte[] body = bodies.apply(index);
            Map<String, String> headers = body.length == 0
                    ? Map.of(
                            AuthHeaders.API_KEY,
                            key.apiKey(),
                            AuthHeaders.TIMESTAMP,
                            timestamp,
                            AuthHeaders.SIGNATURE,
                            signatures[index])
                    : Map.of(
                            AuthHeaders.API_KEY,
                            key.apiKey(),
                            AuthHeaders.TIMESTAMP,
                            timestamp,
                            AuthHeaders.SIGNATURE,
                            signatures[index],
                            "Content-Type",
                            "application/json");
            return new HttpLoad.Request(method, uri, headers, body);
        }
    }

    /** Sends one signed request now and returns its JSON answer (for setting up, not for measuring). */
    JsonNode call(String method, String path, String body) {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        HttpLoad.Request request = signed(method, path, bytes, 1).get(0);
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(request.uri()))
                .method(
                        method,
                        bytes.length == 0
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(bytes));
        request.headers().forEach(builder::header);
        return send(builder.build(), method + " " + path);
    }

    private static JsonNode admin(String adminUrl, String token, String path, Map<String, String> body) {
        return send(
                HttpRequest.newBuilder(URI.create(adminUrl + path))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
                        .build(),
                "admin " + path);
    }

    private static JsonNode send(HttpRequest request, String what) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw new IllegalStateException(what + " answered " + response.statusCode() + ": " + response.body());
            }
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException(what + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " interrupted", e);
        }
    }
}
