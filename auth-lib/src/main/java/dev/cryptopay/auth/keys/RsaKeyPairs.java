package dev.cryptopay.auth.keys;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Objects;
import org.bouncycastle.crypto.generators.RSAKeyPairGenerator;
import org.bouncycastle.crypto.params.RSAKeyGenerationParameters;

/**
 * Generates RSA key pairs, for tests and merchants on legacy stacks without Ed25519.
 * Any size can be generated (tests need short keys to prove they are rejected); only
 * {@value VerificationKey#MIN_RSA_BITS} bits and up are accepted when parsed.
 */
public final class RsaKeyPairs {

    private static final BigInteger PUBLIC_EXPONENT = BigInteger.valueOf(65537);
    /** Miller-Rabin certainty (error probability below 2^-128). */
    private static final int PRIME_CERTAINTY = 128;

    private RsaKeyPairs() {}

    /** A new key pair; {@link GeneratedKeyPair#privateKeyCompact()} is bare Base64 of the PKCS#8 DER. */
    public static GeneratedKeyPair generate(SecureRandom random, int bits) {
        Objects.requireNonNull(random, "random");
        RSAKeyPairGenerator generator = new RSAKeyPairGenerator();
        generator.init(new RSAKeyGenerationParameters(PUBLIC_EXPONENT, random, bits, PRIME_CERTAINTY));
        return KeyPairEncoding.toGeneratedKeyPair(generator.generateKeyPair(), "");
    }
}
