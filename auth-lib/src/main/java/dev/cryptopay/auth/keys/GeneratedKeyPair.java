package dev.cryptopay.auth.keys;

/**
 * A freshly generated key pair in the text forms we hand out.
 *
 * @param publicKeyPem       SPKI PEM, what the merchant registers with us
 * @param privateKeyPem      PKCS#8 PEM, what the merchant keeps
 * @param privateKeyCompact  the same private key on one line: {@code Ed25519:<Base64 PKCS#8 DER>} for
 *                           Ed25519, bare Base64 PKCS#8 DER for RSA; convenient for env vars
 */
public record GeneratedKeyPair(String publicKeyPem, String privateKeyPem, String privateKeyCompact) {

    /** Hides the private key so a logged key pair does not leak it. */
    @Override
    public String toString() {
        return "GeneratedKeyPair[publicKeyPem=" + publicKeyPem.strip() + ", privateKey=<redacted>]";
    }
}
