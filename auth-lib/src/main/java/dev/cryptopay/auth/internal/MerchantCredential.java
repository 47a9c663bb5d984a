package dev.cryptopay.auth.internal;

/**
 * How the gateway established the merchant of a forwarded request, sent in {@link InternalHeaders#MERCHANT_CREDENTIAL}
 * and bound by the internal token: a service may answer less to a caller that only named a merchant with a public key.
 */
public enum MerchantCredential {
    /** A signed request with an API key ({@code mk_…}), or an API key given as {@code merchant_key}. */
    API_KEY("api_key"),
    /**
     * A publishable key ({@code pk_…}) given as {@code merchant_key}: public by design, so it proves only which
     * merchant the caller names, not that the caller is the merchant.
     */
    PUBLISHABLE_KEY("publishable_key");

    private final String wireName;

    MerchantCredential(String wireName) {
        this.wireName = wireName;
    }

    /** The header's spelling. */
    public String wireName() {
        return wireName;
    }

    /**
     * Reads the header's exact spelling.
     *
     * @throws IllegalArgumentException for any other value
     */
    public static MerchantCredential fromWireName(String wireName) {
        for (MerchantCredential credential : values()) {
            if (credential.wireName.equals(wireName)) {
                return credential;
            }
        }
        throw new IllegalArgumentException("Unknown merchant credential: " + wireName);
    }
}
