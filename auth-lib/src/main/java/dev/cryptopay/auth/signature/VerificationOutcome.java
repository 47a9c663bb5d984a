package dev.cryptopay.auth.signature;

import java.util.Locale;

/**
 * Result of checking a signed request. {@link #message()} is the text shown to the client;
 * {@link #code()} is a stable snake_case identifier for metrics and logs.
 *
 * <p>{@link #TIMESTAMP_IN_FUTURE} deliberately shows the same public message as
 * {@link #TIMESTAMP_EXPIRED}; it is a separate constant so clock-skewed clients are visible in metrics.
 */
public enum VerificationOutcome {
    OK("OK"),
    MISSING_API_KEY("Missing " + AuthHeaders.API_KEY + " header"),
    MISSING_SIGNATURE("Missing " + AuthHeaders.SIGNATURE + " header"),
    MISSING_TIMESTAMP("Missing " + AuthHeaders.TIMESTAMP + " header"),
    MALFORMED_TIMESTAMP("Malformed " + AuthHeaders.TIMESTAMP + ": expected ISO 8601 UTC, e.g. 2026-01-01T12:00:00Z"),
    TIMESTAMP_EXPIRED("Timestamp expired"),
    TIMESTAMP_IN_FUTURE("Timestamp expired"),
    INVALID_SIGNATURE("Invalid signature");

    private final String message;

    VerificationOutcome(String message) {
        this.message = message;
    }

    /** Client-facing error text (or {@code "OK"}). */
    public String message() {
        return message;
    }

    /** Stable snake_case code, e.g. {@code timestamp_in_future}. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the request passed. */
    public boolean isOk() {
        return this == OK;
    }
}
