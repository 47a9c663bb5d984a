package dev.cryptopay.auth.keys;

import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.engines.RSABlindedEngine;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.params.RSAKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.bouncycastle.crypto.signers.PSSSigner;

/**
 * The signature schemes a merchant key may use. The algorithm is a property of the key, never of
 * the request, so a client cannot ask the verifier to downgrade.
 */
public enum KeyAlgorithm {
    /** Pure Ed25519 as in RFC 8032 (no pre-hash): 64-byte signatures. */
    ED25519("ed25519"),
    /** RSASSA-PSS with SHA-256, MGF1-SHA-256, 32-byte salt and trailer {@code 0xBC}; RSA keys of at least 2048 bits. */
    RSA_PSS_SHA256("rsa-pss-sha256");

    /** PSS salt length in bytes; equal to the SHA-256 output, as recommended by RFC 8017. */
    static final int PSS_SALT_LENGTH = 32;

    private final String wireName;

    KeyAlgorithm(String wireName) {
        this.wireName = wireName;
    }

    /** The lower-case name used in APIs and storage (e.g. {@code "ed25519"}). */
    public String wireName() {
        return wireName;
    }

    /**
     * Reads the exact wire spelling.
     *
     * @throws IllegalArgumentException for any other value
     */
    public static KeyAlgorithm fromWireName(String wireName) {
        for (KeyAlgorithm algorithm : values()) {
            if (algorithm.wireName.equals(wireName)) {
                return algorithm;
            }
        }
        throw new IllegalArgumentException(
                "Unknown key algorithm '" + wireName + "': expected 'ed25519' or 'rsa-pss-sha256'");
    }

    /** A fresh signer (BouncyCastle signers are stateful, so one per operation). */
    Signer newSigner() {
        return switch (this) {
            case ED25519 -> new Ed25519Signer();
            case RSA_PSS_SHA256 ->
                new PSSSigner(
                        new RSABlindedEngine(),
                        new SHA256Digest(),
                        new SHA256Digest(),
                        PSS_SALT_LENGTH,
                        PSSSigner.TRAILER_IMPLICIT);
        };
    }

    /** The algorithm for a decoded key, or {@code null} when the key type is not supported. */
    static KeyAlgorithm of(AsymmetricKeyParameter key) {
        if (key instanceof Ed25519PublicKeyParameters || key instanceof Ed25519PrivateKeyParameters) {
            return ED25519;
        }
        if (key instanceof RSAKeyParameters) {
            return RSA_PSS_SHA256;
        }
        return null;
    }
}
