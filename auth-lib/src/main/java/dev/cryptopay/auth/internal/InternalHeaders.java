package dev.cryptopay.auth.internal;

/**
 * Headers of internal requests. The gateway sets them on requests it forwards; services trust the merchant headers
 * only when {@link #INTERNAL_AUTH} carries a valid token ({@link InternalTokenSigner}), which also names its caller.
 */
public final class InternalHeaders {

    /** Merchant UUID. */
    public static final String MERCHANT_ID = "X-Merchant-Id";
    /** Merchant mode wire name ({@code test} or {@code live}). */
    public static final String MERCHANT_MODE = "X-Merchant-Mode";
    /**
     * How the gateway established the merchant ({@link MerchantCredential}: {@code api_key} or
     * {@code publishable_key}); sent with the merchant id and mode, and bound by the token as they are.
     */
    public static final String MERCHANT_CREDENTIAL = "X-Merchant-Credential";
    /**
     * The merchant's display name, percent-encoded UTF-8 (as {@code URLEncoder}, a space as {@code +}). Text to show
     * customers only: the token does not cover it, so it never decides who may do what.
     */
    public static final String MERCHANT_NAME = "X-Merchant-Name";
    /** Correlation id propagated across services and into logs. */
    public static final String REQUEST_ID = "X-Request-Id";
    /** The internal token: its caller and audience, bound to the identity headers and to the whole request. */
    public static final String INTERNAL_AUTH = "X-Internal-Auth";

    private InternalHeaders() {}
}
