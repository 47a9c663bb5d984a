package dev.cryptopay.auth.internal;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The request an internal token ({@link InternalTokenSigner}) is bound to, exactly as the receiving service sees it on the wire.
 *
 * @param method     HTTP method as sent ({@code POST})
 * @param rawPath    the path as on the request line, percent-encoding kept, without the query
 * @param rawQuery   the query as on the request line (without {@code ?}, percent-encoding kept); {@code ""} when the
 *                   request has none
 * @param bodySha256 lower-case hex SHA-256 of the exact body bytes; of no bytes when the request has no body
 */
public record InternalRequest(String method, String rawPath, String rawQuery, String bodySha256) {

    private static final Pattern METHOD = Pattern.compile("[A-Z]{1,16}");
    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

    /**
     * @throws IllegalArgumentException for a method that is not upper-case letters, a path or query with a line break
     *                                  (which no request line can carry) or a hash that is not 64 hex digits
     */
    public InternalRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(rawPath, "rawPath");
        Objects.requireNonNull(bodySha256, "bodySha256");
        rawQuery = rawQuery == null ? "" : rawQuery;
        if (!METHOD.matcher(method).matches()) {
            throw new IllegalArgumentException("Method must be upper-case letters: " + method);
        }
        if (hasLineBreak(rawPath) || hasLineBreak(rawQuery)) {
            throw new IllegalArgumentException("Path and query cannot contain line breaks");
        }
        if (!SHA256_HEX.matcher(bodySha256).matches()) {
            throw new IllegalArgumentException("Body hash must be 64 lower-case hex digits");
        }
    }

    /** The request with the hash of {@code body} ({@code null} for no body). */
    public static InternalRequest of(String method, String rawPath, String rawQuery, byte[] body) {
        return new InternalRequest(method, rawPath, rawQuery, sha256Hex(body == null ? new byte[0] : body));
    }

    /** Lower-case hex SHA-256 of the bytes. */
    public static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime has SHA-256", e);
        }
    }

    private static boolean hasLineBreak(String text) {
        return text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0;
    }
}
