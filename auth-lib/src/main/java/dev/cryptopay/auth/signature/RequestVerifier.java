package dev.cryptopay.auth.signature;

import dev.cryptopay.auth.keys.VerificationKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * Server-side check of a signed merchant request; the gateway's single source of truth.
 *
 * <p>Two steps so the cheap checks run before the key lookup: {@link #checkHeaders} (presence and
 * timestamp window), then {@link #verify} with the merchant's key. The timestamp must lie within
 * {@code window} of the clock in either direction, inclusive, which bounds replay of a captured
 * request. Thread-safe.
 */
public final class RequestVerifier {

    /** Default allowed clock difference between client and server. */
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(5);

    private final Clock clock;
    private final Duration window;
    private final boolean requireQueryInSignedPath;

    /**
     * @param clock                    source of "now"; inject a fixed clock in tests
     * @param window                   how far the timestamp may be from now, in either direction (inclusive)
     * @param requireQueryInSignedPath when {@code true}, a request with a query string must have signed
     *                                 {@code path?query}; when {@code false}, signing just the path is also accepted
     */
    public RequestVerifier(Clock clock, Duration window, boolean requireQueryInSignedPath) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.window = Objects.requireNonNull(window, "window");
        if (window.isNegative()) {
            throw new IllegalArgumentException("window must not be negative: " + window);
        }
        this.requireQueryInSignedPath = requireQueryInSignedPath;
    }

    /** A verifier with a {@link #DEFAULT_WINDOW 5-minute} window that accepts signatures with or without the query. */
    public static RequestVerifier withDefaults(Clock clock) {
        return new RequestVerifier(clock, DEFAULT_WINDOW, false);
    }

    /**
     * Checks that all three headers are present and the timestamp is well formed and fresh.
     * Call before looking up the key, so junk is rejected without touching the key store.
     *
     * @return {@link VerificationOutcome#OK} or the first problem found, in header order
     */
    public VerificationOutcome checkHeaders(String apiKey, String signature, String timestamp) {
        if (isBlank(apiKey)) {
            return VerificationOutcome.MISSING_API_KEY;
        }
        if (isBlank(signature)) {
            return VerificationOutcome.MISSING_SIGNATURE;
        }
        return checkTimestamp(timestamp);
    }

    /**
     * Verifies the signature over the canonical request, re-checking the timestamp first.
     *
     * <p>When {@code rawQuery} is non-empty the signed path may be {@code path + "?" + rawQuery} or, unless
     * {@code requireQueryInSignedPath}, just {@code path}; when it is empty only {@code path} is accepted.
     * A malformed signature (bad Base64, wrong length, invalid point, key of the other type) yields
     * {@link VerificationOutcome#INVALID_SIGNATURE}; this method does not throw for client input.
     *
     * @param key             the merchant's key, resolved from the API key
     * @param method          the real HTTP method of the request
     * @param path            the request path without query string
     * @param rawQuery        the raw query string without {@code '?'}, or {@code null}
     * @param timestamp       the {@code X-API-Timestamp} header value
     * @param signatureBase64 the {@code X-API-Signature} header value
     * @param body            the raw body bytes ({@code null} means empty)
     */
    public VerificationOutcome verify(
            VerificationKey key,
            String method,
            String path,
            String rawQuery,
            String timestamp,
            String signatureBase64,
            byte[] body) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        if (isBlank(signatureBase64)) {
            return VerificationOutcome.MISSING_SIGNATURE;
        }
        VerificationOutcome timestampOutcome = checkTimestamp(timestamp);
        if (timestampOutcome != VerificationOutcome.OK) {
            return timestampOutcome;
        }
        byte[] signature;
        try {
            signature = Base64.getDecoder().decode(signatureBase64);
        } catch (IllegalArgumentException e) {
            return VerificationOutcome.INVALID_SIGNATURE;
        }
        for (String signedPath : acceptedSignedPaths(path, rawQuery)) {
            CanonicalRequest request = new CanonicalRequest(method, signedPath, timestamp, body);
            if (key.verify(request.toBytes(), signature)) {
                return VerificationOutcome.OK;
            }
        }
        return VerificationOutcome.INVALID_SIGNATURE;
    }

    private List<String> acceptedSignedPaths(String path, String rawQuery) {
        List<String> paths = new ArrayList<>(2);
        if (rawQuery == null || rawQuery.isEmpty()) {
            paths.add(path);
            return paths;
        }
        paths.add(path + "?" + rawQuery);
        if (!requireQueryInSignedPath) {
            paths.add(path);
        }
        return paths;
    }

    private VerificationOutcome checkTimestamp(String timestamp) {
        if (isBlank(timestamp)) {
            return VerificationOutcome.MISSING_TIMESTAMP;
        }
        Instant signedAt;
        try {
            // ISO_OFFSET_DATE_TIME requires a zone ("Z" or "+00:00") and allows fractional seconds.
            signedAt = OffsetDateTime.parse(timestamp, DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                    .toInstant();
        } catch (DateTimeParseException e) {
            return VerificationOutcome.MALFORMED_TIMESTAMP;
        }
        Instant now = clock.instant();
        if (signedAt.isBefore(now.minus(window))) {
            return VerificationOutcome.TIMESTAMP_EXPIRED;
        }
        if (signedAt.isAfter(now.plus(window))) {
            return VerificationOutcome.TIMESTAMP_IN_FUTURE;
        }
        return VerificationOutcome.OK;
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }
}
