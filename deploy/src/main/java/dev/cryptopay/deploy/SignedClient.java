package dev.cryptopay.deploy;

import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.auth.signature.AuthHeaders;
import dev.cryptopay.auth.signature.CanonicalRequest;
import dev.cryptopay.auth.signature.RequestSigner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;

/**
 * Merchant requests signed with auth-lib's {@link RequestSigner}, the signer the gateway checks with, over {@code
 * METHOD + PATH + TIMESTAMP + BODY}, PATH being what follows the base URL's {@code /api/v1}. A raw client on purpose:
 * tests and {@code ./signed-request} must see every answer as it is, which clients/java's typed, retrying client hides.
 * Timestamps carry milliseconds, so two identical POSTs in one second are not taken for a replay.
 */
public final class SignedClient {

    /** The launcher's HTTP/1.1 client, for the admin API and readiness checks too. */
    static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private final String baseUrl;
    private final String basePath;
    private final String apiKey;
    private final SigningKey signingKey;

    /** For a base URL such as {@code http://127.0.0.1:8080/api/v1} and a key {@link SigningKey#parse} reads. */
    public SignedClient(String baseUrl, String apiKey, String privateKey) {
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.basePath = URI.create(this.baseUrl).getRawPath();
        this.apiKey = apiKey;
        this.signingKey = SigningKey.parse(privateKey);
    }

    public SignedClient(String baseUrl, SandboxCredentials credentials) {
        this(baseUrl, credentials.apiKey(), credentials.privateKey());
    }

    public HttpResponse<String> get(String path) {
        return send("GET", path, null);
    }

    public HttpResponse<String> post(String path, String jsonBody) {
        return send("POST", path, jsonBody);
    }

    public HttpResponse<String> delete(String path) {
        return send("DELETE", path, null);
    }

    /** Signs and sends a body as JSON; the path follows the base URL ({@code /payment_links?page=2}) or repeats it. */
    public HttpResponse<String> send(String method, String path, String body) {
        return send(method, path, body, Map.of());
    }

    /** The same with more headers, which the signature does not cover ({@code Idempotency-Key}). */
    public HttpResponse<String> send(String method, String path, String body, Map<String, String> headers) {
        String upperMethod = method.toUpperCase(Locale.ROOT);
        String relative = relativePath(path);
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        String timestamp = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + relative))
                .timeout(Duration.ofSeconds(60))
                .header(AuthHeaders.API_KEY, apiKey)
                .header(AuthHeaders.TIMESTAMP, timestamp)
                .header(
                        AuthHeaders.SIGNATURE,
                        RequestSigner.sign(signingKey, new CanonicalRequest(upperMethod, relative, timestamp, bytes)))
                .method(
                        upperMethod,
                        bytes.length == 0
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(bytes));
        if (bytes.length > 0) {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        return exchange(request.build());
    }

    /** Sends with {@link #HTTP}; a request that got no answer is an {@link UncheckedIOException} naming it. */
    static HttpResponse<String> exchange(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            String reason = e instanceof ConnectException ? "connection refused" : String.valueOf(e.getMessage());
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed: " + reason, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The signed PATH: relative to the base URL, starting with '/', query kept. */
    String relativePath(String path) {
        String p = path.startsWith("/") ? path : "/" + path;
        if (basePath.length() > 1
                && (p.equals(basePath) || p.startsWith(basePath + "/") || p.startsWith(basePath + "?"))) {
            p = p.substring(basePath.length());
        }
        return p.isEmpty() ? "/" : p;
    }
}
