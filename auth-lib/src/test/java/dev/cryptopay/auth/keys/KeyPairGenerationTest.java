package dev.cryptopay.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;

class KeyPairGenerationTest {

    private static final byte[] MESSAGE = "POST/payment_links2026-01-01T12:00:00Z{}".getBytes(StandardCharsets.UTF_8);

    @Test
    void ed25519PairIsUsableInEveryForm() {
        GeneratedKeyPair pair = Ed25519KeyPairs.generate(new SecureRandom());
        VerificationKey publicKey = VerificationKey.parse(pair.publicKeyPem());

        assertThat(pair.publicKeyPem())
                .startsWith("-----BEGIN PUBLIC KEY-----\n")
                .endsWith("-----END PUBLIC KEY-----\n");
        assertThat(pair.privateKeyPem())
                .startsWith("-----BEGIN PRIVATE KEY-----\n")
                .endsWith("-----END PRIVATE KEY-----\n");
        assertThat(pair.privateKeyCompact()).startsWith("Ed25519:").doesNotContainPattern("\\s");
        assertThat(publicKey.algorithm()).isEqualTo(KeyAlgorithm.ED25519);
        for (String privateForm : new String[] {pair.privateKeyPem(), pair.privateKeyCompact()}) {
            SigningKey signingKey = SigningKey.parse(privateForm);
            assertThat(signingKey.verificationKey()).isEqualTo(publicKey);
            assertThat(publicKey.verify(MESSAGE, signingKey.sign(MESSAGE))).isTrue();
        }
    }

    @Test
    void ed25519CompactFormIsPrefixedPemBody() {
        GeneratedKeyPair pair = Ed25519KeyPairs.generate(new SecureRandom());

        assertThat(pair.privateKeyCompact()).isEqualTo("Ed25519:" + SigningKeyTest.bareBase64(pair.privateKeyPem()));
    }

    @Test
    void ed25519PrivateKeyIsPkcs8VersionOneSoOpensslThreeReadsIt() {
        GeneratedKeyPair pair = Ed25519KeyPairs.generate(new java.security.SecureRandom());
        byte[] der = java.util.Base64.getDecoder()
                .decode(pair.privateKeyCompact().substring(SigningKey.ED25519_COMPACT_PREFIX.length()));

        org.bouncycastle.asn1.pkcs.PrivateKeyInfo info = org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(der);

        assertThat(info.getVersion().intValueExact()).isZero();
        assertThat(info.getPublicKeyData()).isNull();
        assertThat(der).hasSize(48); // RFC 8410's fixed-size encoding of an Ed25519 private key
    }

    @Test
    void ed25519PairsDiffer() {
        SecureRandom random = new SecureRandom();

        assertThat(Ed25519KeyPairs.generate(random).publicKeyPem())
                .isNotEqualTo(Ed25519KeyPairs.generate(random).publicKeyPem());
    }

    @Test
    void rsaPairUsesBareBase64CompactForm() {
        GeneratedKeyPair pair = RsaKeyPairs.generate(new SecureRandom(), 2048);
        VerificationKey publicKey = VerificationKey.parse(pair.publicKeyPem());

        assertThat(publicKey.algorithm()).isEqualTo(KeyAlgorithm.RSA_PSS_SHA256);
        assertThat(pair.privateKeyCompact()).isEqualTo(SigningKeyTest.bareBase64(pair.privateKeyPem()));
        assertThat(SigningKey.parse(pair.privateKeyCompact()).verificationKey()).isEqualTo(publicKey);
        assertThat(SigningKey.parse(pair.privateKeyPem()).verificationKey()).isEqualTo(publicKey);
    }

    @Test
    void toStringRedactsThePrivateKey() {
        GeneratedKeyPair pair = Ed25519KeyPairs.generate(new SecureRandom());

        assertThat(pair.toString())
                .contains("<redacted>")
                .doesNotContain(pair.privateKeyCompact().substring("Ed25519:".length()));
    }
}
