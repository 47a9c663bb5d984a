package dev.cryptopay.auth.internal;

/** Result of {@link InternalTokenVerifier}; everything except {@link #VALID} means "reject with 401". */
public enum InternalTokenOutcome {
    /** The signature matches and the token is fresh. */
    VALID,
    /** No token (null or blank header). */
    MISSING,
    /**
     * Not of the form {@code v3.<caller>.<audience>.<epochSeconds>.<base64url signature>} (the HMAC tokens of
     * {@code v1} and {@code v2} included).
     */
    MALFORMED,
    /** Well formed, but names a caller this service holds no public key for. */
    UNKNOWN_CALLER,
    /** Well formed, but made for another service. */
    WRONG_AUDIENCE,
    /** Issued longer ago than the allowed maximum age. */
    EXPIRED,
    /** Issued more than the allowed clock skew in the future. */
    NOT_YET_VALID,
    /**
     * Well formed and fresh, but not signed with a key of the caller for this audience, identity, method, path,
     * query and body.
     */
    BAD_SIGNATURE
}
