package dev.cryptopay.deploy;

import dev.cryptopay.auth.keys.SigningKey;

/**
 * A merchant's credentials as the admin API returned them.
 *
 * @param merchantId     the merchant's id
 * @param apiKey         {@code mk_test_…} / {@code mk_live_…}: who is calling ({@code X-API-Key})
 * @param publishableKey {@code pk_test_…} / {@code pk_live_…}: the {@code merchant_key} for customer-side code (the
 *                       public payment report); not a secret. Null until one was issued.
 * @param privateKey     the Ed25519 private key in the one-line {@code Ed25519:<Base64 PKCS#8>} form; it signs every
 *                       request ({@code X-API-Signature}); the gateway holds only the public half
 */
public record SandboxCredentials(String merchantId, String apiKey, String publishableKey, String privateKey) {

    /** The private key as PKCS#8 PEM (readable by {@code openssl}). */
    public String privateKeyPem() {
        return SigningKey.parse(privateKey).toPem();
    }

    public SandboxCredentials withPublishableKey(String key) {
        return new SandboxCredentials(merchantId, apiKey, key, privateKey);
    }

    @Override
    public String toString() {
        return "SandboxCredentials[merchant " + merchantId + ", key "
                + apiKey.substring(0, Math.min(12, apiKey.length())) + "…]";
    }
}
