package dev.cryptopay.auth.keys;

import java.io.IOException;
import org.bouncycastle.crypto.CryptoException;
import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.RSAKeyParameters;
import org.bouncycastle.crypto.params.RSAPrivateCrtKeyParameters;
import org.bouncycastle.crypto.util.PrivateKeyFactory;

/**
 * A private key that signs requests: Ed25519 or RSA (at least 2048 bits), used by SDKs, tests and
 * tooling that act as a merchant.
 *
 * <p>Accepted text forms, because keys are pasted into env vars and config files in all of them:
 * <ul>
 *   <li>PKCS#8 PEM ({@code -----BEGIN PRIVATE KEY-----}); CRLF, indentation and literal {@code \n} escapes are tolerated;</li>
 *   <li>{@code Ed25519:} followed by Base64 of the PKCS#8 DER (the single-line form we hand out);</li>
 *   <li>bare Base64 of the PKCS#8 DER.</li>
 * </ul>
 * Instances are immutable and thread-safe. {@link #toString()} never shows key material.
 */
public final class SigningKey {

    /** Prefix of the compact single-line Ed25519 form: {@code Ed25519:<Base64 PKCS#8 DER>}. */
    public static final String ED25519_COMPACT_PREFIX = "Ed25519:";

    private static final String PEM_LABEL = "PRIVATE KEY";

    private final KeyAlgorithm algorithm;
    private final AsymmetricKeyParameter parameters;
    private final VerificationKey verificationKey;
    private final byte[] pkcs8Der;

    private SigningKey(
            KeyAlgorithm algorithm,
            AsymmetricKeyParameter parameters,
            VerificationKey verificationKey,
            byte[] pkcs8Der) {
        this.algorithm = algorithm;
        this.parameters = parameters;
        this.verificationKey = verificationKey;
        this.pkcs8Der = pkcs8Der;
    }

    /**
     * Parses any of the accepted forms (see class documentation).
     *
     * @throws IllegalArgumentException if the text is not a supported private key; the message never contains key material
     */
    public static SigningKey parse(String text) {
        String trimmed = text == null ? null : text.strip();
        boolean compactEd25519 = trimmed != null
                && trimmed.regionMatches(true, 0, ED25519_COMPACT_PREFIX, 0, ED25519_COMPACT_PREFIX.length());
        String encoded = compactEd25519 ? trimmed.substring(ED25519_COMPACT_PREFIX.length()) : trimmed;
        byte[] der = Pem.decode(encoded, PEM_LABEL, "private key");
        AsymmetricKeyParameter parameters;
        try {
            parameters = PrivateKeyFactory.createKey(der);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "Private key is not an unencrypted PKCS#8 DER key of a supported type" + " (Ed25519 or RSA)", e);
        }
        SigningKey key = of(parameters, der);
        if (compactEd25519 && key.algorithm != KeyAlgorithm.ED25519) {
            throw new IllegalArgumentException("Private key has the '" + ED25519_COMPACT_PREFIX + "' prefix but is a "
                    + key.algorithm.wireName() + " key");
        }
        return key;
    }

    private static SigningKey of(AsymmetricKeyParameter parameters, byte[] pkcs8Der) {
        if (parameters instanceof Ed25519PrivateKeyParameters ed25519) {
            return new SigningKey(
                    KeyAlgorithm.ED25519, ed25519, VerificationKey.of(ed25519.generatePublicKey()), pkcs8Der);
        }
        if (parameters instanceof RSAPrivateCrtKeyParameters rsa) {
            RSAKeyParameters publicKey = new RSAKeyParameters(false, rsa.getModulus(), rsa.getPublicExponent());
            return new SigningKey(KeyAlgorithm.RSA_PSS_SHA256, rsa, VerificationKey.of(publicKey), pkcs8Der);
        }
        throw new IllegalArgumentException("Unsupported private key type "
                + parameters.getClass().getSimpleName().replace("PrivateKeyParameters", "")
                + ": only Ed25519 and RSA (>= " + VerificationKey.MIN_RSA_BITS + " bits) are accepted");
    }

    /** The scheme this key signs with. */
    public KeyAlgorithm algorithm() {
        return algorithm;
    }

    /** The matching public key, derived from the private key. */
    public VerificationKey verificationKey() {
        return verificationKey;
    }

    /**
     * The key as PKCS#8 PEM with 64-character lines, exactly the DER it was parsed from: what {@code openssl} reads
     * when the key came in the compact {@code Ed25519:} or bare Base64 form. This is key material; keep it private.
     */
    public String toPem() {
        return Pem.encode(PEM_LABEL, pkcs8Der);
    }

    /**
     * Signs {@code message} and returns the raw signature: 64 bytes for Ed25519 (deterministic),
     * modulus-sized for RSA-PSS (randomised salt).
     */
    public byte[] sign(byte[] message) {
        Signer signer = algorithm.newSigner();
        signer.init(true, parameters);
        signer.update(message, 0, message.length);
        try {
            return signer.generateSignature();
        } catch (CryptoException e) {
            throw new IllegalStateException("Signing failed with a " + algorithm.wireName() + " key", e);
        }
    }

    @Override
    public String toString() {
        return "SigningKey[" + algorithm.wireName() + "]";
    }
}
