package dev.cryptopay.webhooks.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Endpoint secrets at rest (AES-256-GCM): no Spring, no database. */
class SecretCipherTest {

    private static final String KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
    private static final String OTHER_KEY = Base64.getEncoder().encodeToString(new byte[32]);
    private static final String SECRET = "whsec_3kQ9tXv2Lm8Zp1Rn7Yc4Wb6Hd0Fg5Js";

    private static final UUID ENDPOINT = UUID.fromString("0b6f3c2e-8a41-4d0e-9c57-2f1d6a9e4b11");
    private static final UUID OTHER_ENDPOINT = UUID.fromString("7d2a9e40-1c3b-4f85-a6d2-98e0b1c4f37a");

    private final SecretCipher cipher = new SecretCipher(KEY);

    private String open(SecretCipher with, byte[] stored) {
        return with.decrypt(ENDPOINT, stored).secret();
    }

    @Test
    void decryptsWhatItEncrypted() {
        assertThat(open(cipher, cipher.encrypt(ENDPOINT, SECRET))).isEqualTo(SECRET);
        assertThat(open(cipher, cipher.encrypt(ENDPOINT, "whsec_ünïcødé"))).isEqualTo("whsec_ünïcødé");
        assertThat(open(new SecretCipher(KEY), cipher.encrypt(ENDPOINT, SECRET)))
                .as("another instance with the same key, as after a restart")
                .isEqualTo(SECRET);
    }

    @Test
    void storesVersionNonceCiphertextAndTagButNeverThePlainSecret() {
        byte[] stored = cipher.encrypt(ENDPOINT, SECRET);

        assertThat(stored).hasSize(1 + 12 + SECRET.length() + 16);
        assertThat(stored[0]).isEqualTo(SecretCipher.BOUND);
        assertThat(cipher.decrypt(ENDPOINT, stored).legacy()).isFalse();
        assertThat(new String(stored, StandardCharsets.ISO_8859_1)).doesNotContain(SECRET);
    }

    @Test
    void everyEncryptionUsesAFreshNonce() {
        byte[] first = cipher.encrypt(ENDPOINT, SECRET);
        byte[] second = cipher.encrypt(ENDPOINT, SECRET);

        assertThat(Arrays.copyOfRange(first, 1, 13)).isNotEqualTo(Arrays.copyOfRange(second, 1, 13));
        assertThat(first).isNotEqualTo(second);
        assertThat(open(cipher, second)).isEqualTo(SECRET);
    }

    @Test
    void anotherKeyCannotDecrypt() {
        byte[] stored = cipher.encrypt(ENDPOINT, SECRET);

        assertThatIllegalStateException()
                .isThrownBy(() -> new SecretCipher(OTHER_KEY).decrypt(ENDPOINT, stored))
                .withMessageContaining("wrong encryption key");
    }

    @Test
    void anyTamperedByteIsDetected() {
        byte[] stored = cipher.encrypt(ENDPOINT, SECRET);
        for (int position : new int[] {0, 1, 12, 13, stored.length / 2, stored.length - 1}) {
            byte[] tampered = stored.clone();
            tampered[position] ^= 0x01;

            assertThatIllegalStateException()
                    .as("byte %d flipped", position)
                    .isThrownBy(() -> cipher.decrypt(ENDPOINT, tampered));
        }
        assertThatIllegalStateException()
                .as("truncated")
                .isThrownBy(() -> cipher.decrypt(ENDPOINT, Arrays.copyOf(stored, stored.length - 1)));
    }

    @Test
    void aSecretEncryptedForOneEndpointDoesNotDecryptForAnother() {
        byte[] stored = cipher.encrypt(ENDPOINT, SECRET);

        assertThatIllegalStateException()
                .isThrownBy(() -> cipher.decrypt(OTHER_ENDPOINT, stored))
                .withMessageContaining("another endpoint's secret");
        assertThat(open(cipher, stored)).isEqualTo(SECRET);
    }

    @Test
    void theLegacyFormWithoutVersionOrAssociatedDataStillDecryptsAndIsFlaggedForUpgrade() {
        byte[] legacy = cipher.encryptLegacy(SECRET);
        assertThat(legacy).hasSize(12 + SECRET.length() + 16);

        SecretCipher.Opened opened = cipher.decrypt(ENDPOINT, legacy);

        assertThat(opened.secret()).isEqualTo(SECRET);
        assertThat(opened.legacy()).isTrue();
    }

    @Test
    void aLegacyNonceThatStartsLikeTheVersionByteIsStillReadAsLegacy() {
        byte[] legacy;
        do {
            legacy = cipher.encryptLegacy(SECRET);
        } while (legacy[0] != SecretCipher.BOUND);

        SecretCipher.Opened opened = cipher.decrypt(ENDPOINT, legacy);

        assertThat(opened.secret()).isEqualTo(SECRET);
        assertThat(opened.legacy()).isTrue();
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
