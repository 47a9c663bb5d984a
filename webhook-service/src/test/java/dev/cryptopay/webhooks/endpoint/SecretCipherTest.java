package dev.cryptopay.webhooks.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Endpoint secrets at rest (AES-256-GCM): no Spring, no database. */
class SecretCipherTest {

    private static final String KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
    private static final String OTHER_KEY = Base64.getEncoder().encodeToString(new byte[32]);
    private static final String SECRET = "whsec_3kQ9tXv2Lm8Zp1Rn7Yc4Wb6Hd0Fg5Js";

    private final SecretCipher cipher = new SecretCipher(KEY);

    @Test
    void decryptsWhatItEncrypted() {
        assertThat(cipher.decrypt(cipher.encrypt(SECRET))).isEqualTo(SECRET);
        assertThat(cipher.decrypt(cipher.encrypt("whsec_ünïcødé"))).isEqualTo("whsec_ünïcødé");
        assertThat(new SecretCipher(KEY).decrypt(cipher.encrypt(SECRET)))
                .as("another instance with the same key, as after a restart")
                .isEqualTo(SECRET);
    }

    @Test
    void storesNonceCiphertextAndTagButNeverThePlainSecret() {
        byte[] stored = cipher.encrypt(SECRET);

        assertThat(stored).hasSize(12 + SECRET.length() + 16);
        assertThat(new String(stored, StandardCharsets.ISO_8859_1)).doesNotContain(SECRET);
    }

    @Test
    void everyEncryptionUsesAFreshNonce() {
        byte[] first = cipher.encrypt(SECRET);
        byte[] second = cipher.encrypt(SECRET);

        assertThat(Arrays.copyOf(first, 12)).isNotEqualTo(Arrays.copyOf(second, 12));
        assertThat(first).isNotEqualTo(second);
        assertThat(cipher.decrypt(second)).isEqualTo(SECRET);
    }

    @Test
    void anotherKeyCannotDecrypt() {
        byte[] stored = cipher.encrypt(SECRET);

        assertThatIllegalStateException()
                .isThrownBy(() -> new SecretCipher(OTHER_KEY).decrypt(stored))
                .withMessageContaining("wrong encryption key");
    }

    @Test
    void anyTamperedByteIsDetected() {
        byte[] stored = cipher.encrypt(SECRET);
        for (int position : new int[] {0, 11, 12, stored.length / 2, stored.length - 1}) {
            byte[] tampered = stored.clone();
            tampered[position] ^= 0x01;

            assertThatIllegalStateException()
                    .as("byte %d flipped", position)
                    .isThrownBy(() -> cipher.decrypt(tampered));
        }
        assertThatIllegalStateException()
                .as("truncated")
                .isThrownBy(() -> cipher.decrypt(Arrays.copyOf(stored, stored.length - 1)));
    }

    @Test
    void theKeyMustBeBase64OfThirtyTwoBytes() {
        assertThatIllegalStateException()
                .isThrownBy(() -> new SecretCipher(Base64.getEncoder().encodeToString(new byte[16])))
                .withMessageContaining("got 16 bytes");
        assertThatIllegalStateException()
                .isThrownBy(() -> new SecretCipher("not base64!"))
                .withMessageContaining("must be Base64 of 32 bytes");
    }
}
