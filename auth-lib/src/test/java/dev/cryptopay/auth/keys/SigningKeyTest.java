package dev.cryptopay.auth.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.auth.Fixtures;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class SigningKeyTest {

    private static final String ED25519_PRIVATE_PEM = Fixtures.text("ed25519-node-test-only-private.pem");
    private static final String ED25519_PUBLIC_PEM = Fixtures.text("ed25519-node-test-only-public.pem");
    private static final String RSA_PRIVATE_PEM = Fixtures.text("rsa-2048-test-only-private.pem");
    private static final String RSA_PUBLIC_PEM = Fixtures.text("rsa-2048-test-only-public.pem");
    private static final byte[] MESSAGE = "GET/v1/ping2026-01-01T12:00:00Z".getBytes(StandardCharsets.UTF_8);

    @Test
    void readsOpenSslRsaPkcs8Pem() {
        SigningKey key = SigningKey.parse(RSA_PRIVATE_PEM);

        assertThat(key.algorithm()).isEqualTo(KeyAlgorithm.RSA_PSS_SHA256);
        assertThat(key.verificationKey()).isEqualTo(VerificationKey.parse(RSA_PUBLIC_PEM));
    }

    @Test
    void readsNodeEd25519Pkcs8Pem() {
        SigningKey key = SigningKey.parse(ED25519_PRIVATE_PEM);

        assertThat(key.algorithm()).isEqualTo(KeyAlgorithm.ED25519);
        assertThat(key.verificationKey()).isEqualTo(VerificationKey.parse(ED25519_PUBLIC_PEM));
    }

    @Test
    void acceptsPemWithCrlfAndSurroundingWhitespace() {
        String mangled = "  \r\n" + RSA_PRIVATE_PEM.replace("\n", "\r\n    ") + "\r\n\r\n";

        assertThat(SigningKey.parse(mangled).verificationKey()).isEqualTo(VerificationKey.parse(RSA_PUBLIC_PEM));
    }

    @Test
    void acceptsPemWithLiteralBackslashNEscapesAsInEnvironmentVariables() {
        String escaped = ED25519_PRIVATE_PEM.strip().replace("\n", "\\n");

        assertThat(SigningKey.parse(escaped).verificationKey()).isEqualTo(VerificationKey.parse(ED25519_PUBLIC_PEM));
    }

    @Test
    void acceptsCompactEd25519Form() {
        String compact = "Ed25519:" + bareBase64(ED25519_PRIVATE_PEM);

        assertThat(SigningKey.parse(compact).verificationKey()).isEqualTo(VerificationKey.parse(ED25519_PUBLIC_PEM));
    }

    @Test
    void acceptsBareBase64Pkcs8Der() {
        assertThat(SigningKey.parse(bareBase64(RSA_PRIVATE_PEM)).verificationKey())
                .isEqualTo(VerificationKey.parse(RSA_PUBLIC_PEM));
        assertThat(SigningKey.parse(bareBase64(ED25519_PRIVATE_PEM)).verificationKey())
                .isEqualTo(VerificationKey.parse(ED25519_PUBLIC_PEM));
    }

    @Test
    void rejectsCompactEd25519PrefixOnRsaKey() {
        String mislabelled = "Ed25519:" + bareBase64(RSA_PRIVATE_PEM);

        assertThatThrownBy(() -> SigningKey.parse(mislabelled))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'Ed25519:' prefix but is a rsa-pss-sha256 key");
    }

    @Test
    void rejectsPkcs1PemWithConversionHint() {
        String pkcs1 = RSA_PRIVATE_PEM.replace("PRIVATE KEY", "RSA PRIVATE KEY");

        assertThatThrownBy(() -> SigningKey.parse(pkcs1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("found 'RSA PRIVATE KEY'")
                .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
    }

    @Test
    void rejectsPublicKeyPemWithHint() {
        assertThatThrownBy(() -> SigningKey.parse(RSA_PUBLIC_PEM))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("signing needs the private key");
    }

    @Test
    void rejectsRsaKeyShorterThan2048Bits() {
        String rsa1024 = RsaKeyPairs.generate(new SecureRandom(), 1024).privateKeyPem();

        assertThatThrownBy(() -> SigningKey.parse(rsa1024))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 2048 required");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {" ", "Ed25519:"})
    void rejectsEmptyText(String text) {
        assertThatThrownBy(() -> SigningKey.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Private key is empty");
    }

    @ParameterizedTest
    @ValueSource(strings = {"not a key!", "Ed25519:%%%"})
    void rejectsGarbageWithClearMessage(String text) {
        assertThatThrownBy(() -> SigningKey.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Private key is neither PEM ('-----BEGIN PRIVATE KEY-----') nor valid Base64 DER");
    }

    @Test
    void rejectsPemWithInvalidBase64Body() {
        assertThatThrownBy(() -> SigningKey.parse("-----BEGIN PRIVATE KEY-----\n!!!\n-----END PRIVATE KEY-----"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Private key PEM body is not valid Base64");
    }

    @Test
    void rejectsBase64ThatIsNotPkcs8() {
        assertThatThrownBy(() -> SigningKey.parse("aGVsbG8gd29ybGQ="))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an unencrypted PKCS#8 DER key");
    }

    @Test
    void errorMessagesNeverContainKeyMaterial() {
        String base64 = bareBase64(RSA_PRIVATE_PEM);
        String corrupted = base64.substring(0, 200) + "*" + base64.substring(200);

        assertThatThrownBy(() -> SigningKey.parse(corrupted))
                .isInstanceOf(IllegalArgumentException.class)
                .message()
                .doesNotContain(base64.substring(0, 40));
    }

    @Test
    void ed25519SignaturesAreDeterministicAndVerify() {
        SigningKey key = SigningKey.parse(ED25519_PRIVATE_PEM);
        byte[] signature = key.sign(MESSAGE);

        assertThat(signature).hasSize(64).isEqualTo(key.sign(MESSAGE));
        assertThat(key.verificationKey().verify(MESSAGE, signature)).isTrue();
    }

    @Test
    void rsaPssSignaturesAreRandomisedAndVerify() {
        SigningKey key = SigningKey.parse(RSA_PRIVATE_PEM);
        byte[] first = key.sign(MESSAGE);
        byte[] second = key.sign(MESSAGE);

        assertThat(first).hasSize(256).isNotEqualTo(second);
        assertThat(key.verificationKey().verify(MESSAGE, first)).isTrue();
        assertThat(key.verificationKey().verify(MESSAGE, second)).isTrue();
    }

    @Test
    void toPemWritesTheCompactEd25519FormAsThePkcs8PemItCameFrom() {
        GeneratedKeyPair generated = Ed25519KeyPairs.generate(new SecureRandom());

        assertThat(SigningKey.parse(generated.privateKeyCompact()).toPem()).isEqualTo(generated.privateKeyPem());
    }

    @Test
    void toPemGivesBackAPemInputWithOpenSslLineLayout() {
        assertThat(SigningKey.parse(ED25519_PRIVATE_PEM.replace("\n", "\r\n")).toPem())
                .isEqualTo(ED25519_PRIVATE_PEM.strip() + "\n");
        assertThat(SigningKey.parse(bareBase64(RSA_PRIVATE_PEM)).toPem()).isEqualTo(RSA_PRIVATE_PEM.strip() + "\n");
    }

    @Test
    void toStringHidesKeyMaterial() {
        assertThat(SigningKey.parse(ED25519_PRIVATE_PEM)).hasToString("SigningKey[ed25519]");
    }

    static String bareBase64(String pem) {
        return pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    }
}
