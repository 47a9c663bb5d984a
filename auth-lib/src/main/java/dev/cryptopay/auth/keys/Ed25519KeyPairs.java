package dev.cryptopay.auth.keys;

import java.security.SecureRandom;
import java.util.Objects;
import org.bouncycastle.crypto.generators.Ed25519KeyPairGenerator;
import org.bouncycastle.crypto.params.Ed25519KeyGenerationParameters;

/** Generates Ed25519 key pairs for merchants: the recommended key type (small, fast, deterministic signatures). */
public final class Ed25519KeyPairs {

    private Ed25519KeyPairs() {}

    /** A new key pair; {@link GeneratedKeyPair#privateKeyCompact()} is {@code Ed25519:<Base64 PKCS#8 DER>}. */
    public static GeneratedKeyPair generate(SecureRandom random) {
        Objects.requireNonNull(random, "random");
        Ed25519KeyPairGenerator generator = new Ed25519KeyPairGenerator();
        generator.init(new Ed25519KeyGenerationParameters(random));
        return KeyPairEncoding.toGeneratedKeyPair(generator.generateKeyPair(), SigningKey.ED25519_COMPACT_PREFIX);
    }
}
