package dev.cryptopay.gateway.support;

import dev.cryptopay.auth.signature.AuthHeaders;
import dev.cryptopay.auth.signature.CanonicalRequest;
import dev.cryptopay.auth.signature.RequestSigner;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * A merchant request signed the way a merchant SDK does it (auth-lib's {@link RequestSigner}), with knobs to sign
 * something other than what is sent, to exercise every failure.
 */
public final class SignedRequest {

    private final String method;
    private final String pathAndQuery;
    private byte[] body = new byte[0];
    private String signedMethod;
    private String signedPath;
    private byte[] signedBody;
    private String timestamp = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    private final Map<String, String> extraHeaders = new LinkedHashMap<>();
    private boolean omitKey;
    private boolean omitSignature;
    private boolean omitTimestamp;
    private String apiKeyOverride;

    private SignedRequest(String method, String pathAndQuery) {
        this.method = method;
        this.pathAndQuery = pathAndQuery;
    }

    /** @param pathAndQuery relative to {@code /api/v1}, e.g. {@code /payment_links?page=2} */
    public static SignedRequest of(String method, String pathAndQuery) {
        return new SignedRequest(method, pathAndQuery);
    }

    public SignedRequest body(String text) {
        return body(text.getBytes(StandardCharsets.UTF_8));
    }

    public SignedRequest body(byte[] bytes) {
        this.body = bytes;
        return this;
    }

    public SignedRequest signedMethod(String value) {
        this.signedMethod = value;
        return this;
    }

    public SignedRequest signedPath(String value) {
        this.signedPath = value;
        return this;
    }

    public SignedRequest signedBody(byte[] value) {
        this.signedBody = value;
        return this;
    }

    public SignedRequest timestamp(String value) {
        this.timestamp = value;
        return this;
    }

    public SignedRequest timestamp(Instant value) {
        return timestamp(value.truncatedTo(ChronoUnit.SECONDS).toString());
    }

    public SignedRequest header(String name, String value) {
        extraHeaders.put(name, value);
        return this;
    }

    public SignedRequest apiKey(String value) {
        this.apiKeyOverride = value;
        return this;
    }

    public SignedRequest withoutApiKey() {
        omitKey = true;
        return this;
    }

    public SignedRequest withoutSignature() {
        omitSignature = true;
        return this;
    }

    public SignedRequest withoutTimestamp() {
        omitTimestamp = true;
        return this;
    }

    /** The {@code X-API-Timestamp} value this request carries. */
    public String timestamp() {
        return timestamp;
    }

    /** The signature header value this request will carry. */
    public String signature(MerchantKey key) {
        String path = signedPath != null ? signedPath : pathAndQuery;
        return RequestSigner.sign(
                key.signingKey(),
                new CanonicalRequest(
                        signedMethod != null ? signedMethod : method,
                        path,
                        timestamp,
                        signedBody != null ? signedBody : body));
    }

    public WebTestClient.ResponseSpec send(WebTestClient client, String baseUrl, MerchantKey key) {
        String signature = signature(key);
        WebTestClient.RequestBodySpec spec = client.method(HttpMethod.valueOf(method))
                .uri(URI.create(baseUrl + "/api/v1" + pathAndQuery))
                .headers(headers -> {
                    if (!omitKey) {
                        headers.set(AuthHeaders.API_KEY, apiKeyOverride != null ? apiKeyOverride : key.apiKey());
                    }
                    if (!omitSignature) {
                        headers.set(AuthHeaders.SIGNATURE, signature);
                    }
                    if (!omitTimestamp) {
                        headers.set(AuthHeaders.TIMESTAMP, timestamp);
                    }
                    extraHeaders.forEach(headers::set);
                });
        if (body.length > 0) {
            return spec.contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
        }
        return spec.exchange();
    }

    /** The same request for a plain (non-test) reactive client, used to fire many requests concurrently. */
    public WebClient.RequestHeadersSpec<?> prepare(WebClient client, String baseUrl, MerchantKey key) {
        String signature = signature(key);
        WebClient.RequestBodySpec spec = client.method(HttpMethod.valueOf(method))
                .uri(URI.create(baseUrl + "/api/v1" + pathAndQuery))
                .headers(headers -> {
                    headers.set(AuthHeaders.API_KEY, key.apiKey());
                    headers.set(AuthHeaders.SIGNATURE, signature);
                    headers.set(AuthHeaders.TIMESTAMP, timestamp);
                    extraHeaders.forEach(headers::set);
                });
        return body.length > 0 ? spec.contentType(MediaType.APPLICATION_JSON).bodyValue(body) : spec;
    }
}
