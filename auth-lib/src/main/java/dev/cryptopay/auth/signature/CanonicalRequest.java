package dev.cryptopay.auth.signature;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The exact bytes a merchant signs: UTF-8 of {@code METHOD + PATH + TIMESTAMP} followed by the raw
 * body bytes, with no separators.
 *
 * <p>Nothing is normalised: the method is used exactly as given (the verifier passes the real HTTP
 * method, so a client that signed {@code "post"} fails), the path is what the client put on the
 * request line (optionally with {@code ?query}), and the body is the bytes on the wire, so clients in
 * any language can reproduce it without a JSON canonicaliser.
 *
 * @param method    HTTP method, e.g. {@code POST}
 * @param path      request path, e.g. {@code /payment_links} or {@code /payment_links?limit=10}
 * @param timestamp the {@code X-API-Timestamp} header value, verbatim
 * @param body      the raw request body; {@code null} means empty
 */
public record CanonicalRequest(String method, String path, String timestamp, byte[] body) {

    private static final byte[] EMPTY = new byte[0];

    /** Copies the body so the record stays immutable; {@code null} becomes an empty body. */
    public CanonicalRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(timestamp, "timestamp");
        body = body == null ? EMPTY : body.clone();
    }

    /** A copy of the body bytes (never {@code null}). */
    @Override
    public byte[] body() {
        return body.clone();
    }

    /** The bytes to sign or verify. */
    public byte[] toBytes() {
        byte[] head = (method + path + timestamp).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(head.length + body.length);
        out.writeBytes(head);
        out.writeBytes(body);
        return out.toByteArray();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CanonicalRequest that
                && method.equals(that.method)
                && path.equals(that.path)
                && timestamp.equals(that.timestamp)
                && Arrays.equals(body, that.body);
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hash(method, path, timestamp) + Arrays.hashCode(body);
    }

    /** Shows the body length only: bodies can be large and may carry customer data. */
    @Override
    public String toString() {
        return "CanonicalRequest[method=" + method + ", path=" + path + ", timestamp=" + timestamp + ", bodyLength="
                + body.length + "]";
    }
}
