package dev.cryptopay.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Fixtures;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class VerificationKeyTest {

    private static final String ED25519_PUBLIC_PEM = Fixtures.text("ed25519-node-test-only-public.pem");
    private static final String RSA_PUBLIC_PEM = Fixtures.text("rsa-2048-test-only-public.pem");

    @Test
    void detectsEd25519FromSpkiPem() {
        assertThat(VerificationKey.parse(ED25519_PUBLIC_PEM).algorithm()).isEqualTo(KeyAlgorithm.ED25519);
    }

    @Test
    void detectsRsaFromSpkiPem() {
        assertThat(VerificationKey.parse(RSA_PUBLIC_PEM).algorithm()).isEqualTo(KeyAlgorithm.RSA_PSS_SHA256);
    }

    @Test
    void toPemReproducesOpenSslLayout() {
        assertThat(VerificationKey.parse(RSA_PUBLIC_PEM).toPem()).isEqualTo(RSA_PUBLIC_PEM);
        assertThat(VerificationKey.parse(ED25519_PUBLIC_PEM).toPem()).isEqualTo(ED25519_PUBLIC_PEM);
    }

    @Test
    void toPemUsesSixtyFourCharacterLines() {
        String pem = VerificationKey.parse(RSA_PUBLIC_PEM).toPem();

        assertThat(pem.lines().filter(line -> !line.startsWith("-----")))
                .allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(64))
                .first()
                .satisfies(line -> assertThat(line).hasSize(64));
    }

    @Test
    void acceptsPemWithCrlfAndSurroundingWhitespace() {
        String mangled = "\n   " + RSA_PUBLIC_PEM.replace("\n", "\r\n  ") + "  \r\n\t";

        assertThat(VerificationKey.parse(mangled)).isEqualTo(VerificationKey.parse(RSA_PUBLIC_PEM));
    }

    @Test
    void acceptsPemWithLiteralBackslashNEscapes() {
        String escaped = ED25519_PUBLIC_PEM.strip().replace("\n", "\\n");

        assertThat(VerificationKey.parse(escaped)).isEqualTo(VerificationKey.parse(ED25519_PUBLIC_PEM));
    }

    @Test
    void acceptsBareBase64OfSpkiDer() {
        String bare = ED25519_PUBLIC_PEM.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");

        assertThat(VerificationKey.parse(bare)).isEqualTo(VerificationKey.parse(ED25519_PUBLIC_PEM));
    }

    @Test
    void keysAreEqualByEncodedKey() {
        assertThat(VerificationKey.parse(RSA_PUBLIC_PEM))
                .isEqualTo(VerificationKey.parse(RSA_PUBLIC_PEM))
                .hasSameHashCodeAs(VerificationKey.parse(RSA_PUBLIC_PEM))
                .isNotEqualTo(VerificationKey.parse(ED25519_PUBLIC_PEM));
    }

    @Test
    void rejectsRsaKeyShorterThan2048Bits() {
        String rsa1024 = RsaKeyPairs.generate(new SecureRandom(), 1024).publicKeyPem();

        assertThatThrownBy(() -> VerificationKey.parse(rsa1024))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("RSA key is too short: 1024 bits, at least 2048 required");
    }

    @Test
    void rejectsRsaKeysLongerThan4096BitsOrWithAnotherExponent() throws Exception {
        // Real moduli (products of two large primes): BouncyCastle refuses primes and small factors earlier.
        SecureRandom random = new SecureRandom();
        java.math.BigInteger huge = java.math.BigInteger.probablePrime(2100, random)
                .multiply(java.math.BigInteger.probablePrime(2101, random));
        assertThatThrownBy(() -> VerificationKey.parse(spki(huge, java.math.BigInteger.valueOf(65537))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("RSA key is too long: " + huge.bitLength() + " bits, at most 4096 accepted");
        java.math.BigInteger modulus = java.math.BigInteger.probablePrime(1024, random)
                .multiply(java.math.BigInteger.probablePrime(1025, random));
        assertThatThrownBy(() -> VerificationKey.parse(spki(modulus, java.math.BigInteger.valueOf(3))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("RSA key must use the public exponent 65537");
    }

    private static String spki(java.math.BigInteger modulus, java.math.BigInteger exponent) throws Exception {
        return Base64.getEncoder()
                .encodeToString(org.bouncycastle.crypto.util.SubjectPublicKeyInfoFactory.createSubjectPublicKeyInfo(
                                new org.bouncycastle.crypto.params.RSAKeyParameters(false, modulus, exponent))
                        .getEncoded());
    }

    @Test
    void rejectsOtherKeyTypes() throws Exception {
        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
        ec.initialize(256);
        String ecSpki = Base64.getEncoder()
                .encodeToString(ec.generateKeyPair().getPublic().getEncoded());

        assertThatThrownBy(() -> VerificationKey.parse(ecSpki))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unsupported public key type EC")
                .hasMessageContaining("only Ed25519 and RSA");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"   ", "\n"})
    void rejectsEmptyText(String text) {
        assertThatThrownBy(() -> VerificationKey.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Public key is empty");
    }

    @Test
    void rejectsGarbageWithClearMessage() {
        assertThatThrownBy(() -> VerificationKey.parse("this is not a key!"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("neither PEM")
                .hasMessageContaining("nor valid Base64 DER");
    }

    @Test
    void rejectsValidBase64ThatIsNotAKey() {
        assertThatThrownBy(() -> VerificationKey.parse("aGVsbG8gd29ybGQ="))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a DER SubjectPublicKeyInfo");
    }

    @Test
    void rejectsPrivateKeyPemWithHint() {
        assertThatThrownBy(() -> VerificationKey.parse(Fixtures.text("ed25519-node-test-only-private.pem")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Expected PEM 'PUBLIC KEY'")
                .hasMessageContaining("supply the public key");
    }

    @Test
    void rejectsPemWithoutEndLine() {
        String truncated = RSA_PUBLIC_PEM.substring(0, RSA_PUBLIC_PEM.indexOf("-----END"));

        assertThatThrownBy(() -> VerificationKey.parse(truncated))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("missing its '-----END PUBLIC KEY-----' line");
    }

    @Test
    void rejectsTruncatedDer() {
        String der = RSA_PUBLIC_PEM.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        String truncated = Base64.getEncoder()
                .encodeToString(Arrays.copyOf(Base64.getDecoder().decode(der), 100));

        assertThatThrownBy(() -> VerificationKey.parse(truncated)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void verifyReturnsFalseInsteadOfThrowingForJunkSignatures() {
        VerificationKey rsa = VerificationKey.parse(RSA_PUBLIC_PEM);
        VerificationKey ed25519 = VerificationKey.parse(ED25519_PUBLIC_PEM);
        byte[] message = "m".getBytes(StandardCharsets.UTF_8);

        assertThat(rsa.verify(message, new byte[0])).isFalse();
        assertThat(rsa.verify(message, new byte[512])).isFalse();
        assertThat(rsa.verify(message, filled(256, (byte) 0xFF))).isFalse();
        assertThat(ed25519.verify(message, new byte[63])).isFalse();
        assertThat(ed25519.verify(message, filled(64, (byte) 0xFF))).isFalse();
        assertThat(ed25519.verify(message, null)).isFalse();
    }

    @Test
    void toStringNamesTheAlgorithm() {
        assertThat(VerificationKey.parse(ED25519_PUBLIC_PEM)).hasToString("VerificationKey[ed25519]");
    }

    private static byte[] filled(int length, byte value) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, value);
        return bytes;
    }
}
