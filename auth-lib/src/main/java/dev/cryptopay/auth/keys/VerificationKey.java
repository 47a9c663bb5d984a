package dev.cryptopay.auth.keys;

import java.io.IOException;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Base64;
import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.RSAKeyParameters;
import org.bouncycastle.crypto.util.PublicKeyFactory;
import org.bouncycastle.crypto.util.SubjectPublicKeyInfoFactory;

/**
 * A merchant's public key, decoded once so callers can cache it and verify many requests cheaply.
 *
 * <p>Accepts an SPKI PEM ({@code -----BEGIN PUBLIC KEY-----}) or bare Base64 of the SPKI DER; the
 * algorithm is detected from the key itself. Only Ed25519 and RSA of at least 2048 bits are accepted.
 * Instances are immutable and thread-safe; equality is by encoded key.
 */
public final class VerificationKey {

    /** Smallest RSA modulus accepted, per NIST SP 800-131A. */
    public static final int MIN_RSA_BITS = 2048;

    /** Largest RSA modulus accepted: bigger keys only make every verification slower for everyone. */
    public static final int MAX_RSA_BITS = 4096;

    /** The only RSA public exponent accepted (F4), as every mainstream key generator uses. */
    public static final BigInteger RSA_EXPONENT = BigInteger.valueOf(65537);

    private static final String PEM_LABEL = "PUBLIC KEY";

    private final KeyAlgorithm algorithm;
    private final AsymmetricKeyParameter parameters;
    private final byte[] spkiDer;

    private VerificationKey(KeyAlgorithm algorithm, AsymmetricKeyParameter parameters, byte[] spkiDer) {
        this.algorithm = algorithm;
        this.parameters = parameters;
        this.spkiDer = spkiDer;
    }

    /**
     * Parses an SPKI PEM or bare Base64 SPKI DER.
     *
     * @throws IllegalArgumentException if the text is not a supported public key (Ed25519 or RSA >= 2048 bits)
     */
    public static VerificationKey parse(String text) {
        byte[] der = Pem.decode(text, PEM_LABEL, "public key");
        AsymmetricKeyParameter parameters;
        try {
            parameters = PublicKeyFactory.createKey(der);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "Public key is not a DER SubjectPublicKeyInfo of a supported type" + " (Ed25519 or RSA)", e);
        }
        return of(parameters);
    }

    /** Wraps an already-decoded BouncyCastle public key, applying the same checks as {@link #parse}. */
    static VerificationKey of(AsymmetricKeyParameter parameters) {
        if (parameters.isPrivate()) {
            throw new IllegalArgumentException("Expected a public key but got a private key");
        }
        KeyAlgorithm algorithm = KeyAlgorithm.of(parameters);
        if (algorithm == null) {
            throw new IllegalArgumentException("Unsupported public key type "
                    + parameters.getClass().getSimpleName().replace("PublicKeyParameters", "")
                    + ": only Ed25519 and RSA (>= " + MIN_RSA_BITS + " bits) are accepted");
        }
        if (parameters instanceof RSAKeyParameters rsa && rsa.getModulus().bitLength() < MIN_RSA_BITS) {
            throw new IllegalArgumentException("RSA key is too short: "
                    + rsa.getModulus().bitLength() + " bits, at least " + MIN_RSA_BITS + " required");
        }
        if (parameters instanceof RSAKeyParameters rsa && rsa.getModulus().bitLength() > MAX_RSA_BITS) {
            throw new IllegalArgumentException("RSA key is too long: "
                    + rsa.getModulus().bitLength() + " bits, at most " + MAX_RSA_BITS + " accepted");
        }
        if (parameters instanceof RSAKeyParameters rsa && !rsa.getExponent().equals(RSA_EXPONENT)) {
            throw new IllegalArgumentException("RSA key must use the public exponent 65537");
        }
        try {
            byte[] der = SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(parameters)
                    .getEncoded();
            return new VerificationKey(algorithm, parameters, der);
        } catch (IOException e) {
            throw new IllegalArgumentException("Public key cannot be re-encoded as SubjectPublicKeyInfo", e);
        }
    }

    /** The scheme signatures made with the matching private key use. */
    public KeyAlgorithm algorithm() {
        return algorithm;
    }

    /** The key as SPKI PEM with 64-character lines, the form we store and show to merchants. */
    public String toPem() {
        return Pem.encode(PEM_LABEL, spkiDer);
    }

    /** The key as Base64 of its SPKI DER on one line: the form for environment variables ({@link #parse} reads it). */
    public String toBase64() {
        return Base64.getEncoder().encodeToString(spkiDer);
    }

    /**
     * Checks a raw signature (not Base64) over {@code message} with this key's {@link #algorithm()}.
     *
     * <p>Returns {@code false} rather than throwing for every malformed signature (wrong length, invalid
     * point, out-of-range value), because the signature comes straight from an untrusted client.
     * Ed25519 verification is BouncyCastle's strict RFC 8032 check.
     */
    public boolean verify(byte[] message, byte[] signature) {
        if (message == null || signature == null) {
            return false;
        }
        try {
            Signer signer = algorithm.newSigner();
            signer.init(false, parameters);
            signer.update(message, 0, message.length);
            return signer.verifySignature(signature);
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof VerificationKey that && Arrays.equals(spkiDer, that.spkiDer);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(spkiDer);
    }

    @Override
    public String toString() {
        return "VerificationKey[" + algorithm.wireName() + "]";
    }
}
