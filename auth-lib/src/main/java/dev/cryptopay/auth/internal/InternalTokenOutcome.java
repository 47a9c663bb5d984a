package dev.cryptopay.auth.internal;

/** Result of {@link InternalIdentityToken#verify}; everything except {@link #VALID} means "reject with 401". */
public enum InternalTokenOutcome {
    /** MAC matches and the token is fresh. */
    VALID,
    /** No token (null or blank header). */
    MISSING,
    /** Not of the form {@code v1.<epochSeconds>.<base64url MAC>}. */
    MALFORMED,
    /** Issued longer ago than the allowed maximum age. */
    EXPIRED,
    /** Issued more than the allowed clock skew in the future. */
    NOT_YET_VALID,
    /** Well formed and fresh, but not issued for this identity, method and path with our secret. */
    BAD_MAC
}
