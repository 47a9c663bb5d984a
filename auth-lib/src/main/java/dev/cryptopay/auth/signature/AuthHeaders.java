package dev.cryptopay.auth.signature;

/** Names of the HTTP headers a merchant sends to authenticate a request. */
public final class AuthHeaders {

    /** The merchant's API key ({@code mk_test_…} or {@code mk_live_…}). */
    public static final String API_KEY = "X-API-Key";
    /** Base64 of the raw signature over the {@link CanonicalRequest}. */
    public static final String SIGNATURE = "X-API-Signature";
    /** ISO 8601 UTC time of signing, e.g. {@code 2026-01-01T12:00:00Z}; signed, and bounds replay. */
    public static final String TIMESTAMP = "X-API-Timestamp";

    private AuthHeaders() {}
}
