package dev.cryptopay.auth.internal;

/**
 * Headers the gateway sets on requests it forwards to internal services. Services trust the
 * merchant headers only when {@link #INTERNAL_AUTH} carries a valid {@link InternalIdentityToken}.
 */
public final class InternalHeaders {

    /** Merchant UUID. */
    public static final String MERCHANT_ID = "X-Merchant-Id";
    /** Merchant mode wire name ({@code test} or {@code live}). */
    public static final String MERCHANT_MODE = "X-Merchant-Mode";
    /** Correlation id propagated across services and into logs. */
    public static final String REQUEST_ID = "X-Request-Id";
    /** The {@link InternalIdentityToken} binding the identity headers to this request. */
    public static final String INTERNAL_AUTH = "X-Internal-Auth";

    private InternalHeaders() {}
}
