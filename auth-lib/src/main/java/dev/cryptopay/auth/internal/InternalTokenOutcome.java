package dev.cryptopay.auth.internal;

/** Result of {@link InternalTokenVerifier}; everything except {@link #VALID} means "reject with 401". */
public enum InternalTokenOutcome {
    /** MAC matches and the token is fresh. */
    VALID,
    /** No token (null or blank header). */
    MISSING,
    /** Not of the form {@code v2.<caller>.<epochSeconds>.<base64url MAC>} (a {@code v1} token included). */
    MALFORMED,
    /** Well formed, but names a caller this service holds no secret for. */
    UNKNOWN_CALLER,
    /** Issued longer ago than the allowed maximum age. */
    EXPIRED,
    /** Issued more than the allowed clock skew in the future. */
    NOT_YET_VALID,
    /**
     * Well formed and fresh, but not issued with the caller's secret for this identity, method, path, query and
     * body.
     */
    BAD_MAC
}
