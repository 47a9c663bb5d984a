package dev.cryptopay.webhooks.endpoint;

import dev.cryptopay.webhooks.config.WebhookProperties;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.UUID;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Encrypts endpoint signing secrets at rest with AES-256-GCM, so a copy of the database alone does not let anyone
 * forge webhooks.
 *
 * <p>Stored form ({@value #BOUND}): one version byte {@code 0x01}, a 12-byte random nonce, then ciphertext and tag;
 * the endpoint's id (its 16 UUID bytes) is the GCM associated data, so a ciphertext copied onto another endpoint's
 * row does not decrypt there. The legacy form (a 12-byte nonce, ciphertext and tag, no associated data) written
 * before the version byte existed is still read; {@link Opened#legacy()} tells callers to re-encrypt it (see
 * {@link LegacySecretUpgrade}).
 */
@Component
public class SecretCipher {

    /** Version byte of the endpoint-bound form. */
    public static final byte BOUND = 0x01;

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final int TAG_BYTES = TAG_BITS / 8;

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    /** A decrypted secret, and whether it was stored in the legacy form (not bound to its endpoint). */
    public record Opened(String secret, boolean legacy) {}

    @Autowired
    public SecretCipher(WebhookProperties properties) {
        this(properties.secretEncryptionKey());
    }

    /** @param base64Key Base64 of 32 bytes, as in {@code webhooks.secret-encryption-key} */
    SecretCipher(String base64Key) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(base64Key);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("webhooks.secret-encryption-key must be Base64 of 32 bytes", e);
        }
        if (raw.length != 32) {
            throw new IllegalStateException(
                    "webhooks.secret-encryption-key must be Base64 of 32 bytes, got " + raw.length + " bytes");
        }
        this.key = new SecretKeySpec(raw, "AES");
    }

    /** Encrypts {@code secret} in the bound form: it decrypts only for {@code endpointId}. */
    public byte[] encrypt(UUID endpointId, String secret) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData(endpointId));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length)
                    .put(BOUND)
                    .put(nonce)
                    .put(sealed)
                    .array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every JRE", e);
        }
    }

    /**
     * Decrypts a stored secret of {@code endpointId}, in either form. A bound ciphertext of another endpoint, another
     * key or any altered byte throws.
     */
    public Opened decrypt(UUID endpointId, byte[] stored) {
        if (stored.length >= 1 + NONCE_BYTES + TAG_BYTES && stored[0] == BOUND) {
            try {
                return new Opened(open(stored, 1, associatedData(endpointId)), false);
            } catch (GeneralSecurityException e) {
                // A legacy nonce may begin with 0x01 too: the legacy reading below decides.
            }
        }
        try {
            return new Opened(open(stored, 0, null), true);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(
                    "Secret of endpoint " + endpointId
                            + " cannot be decrypted: wrong encryption key, altered bytes or another endpoint's secret?",
                    e);
        }
    }

    private String open(byte[] stored, int offset, byte[] associatedData) throws GeneralSecurityException {
        if (stored.length < offset + NONCE_BYTES + TAG_BYTES) {
            throw new javax.crypto.AEADBadTagException("too short");
        }
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, stored, offset, NONCE_BYTES));
        if (associatedData != null) {
            cipher.updateAAD(associatedData);
        }
        byte[] plain = cipher.doFinal(stored, offset + NONCE_BYTES, stored.length - offset - NONCE_BYTES);
        return new String(plain, StandardCharsets.UTF_8);
    }

    /** Legacy form, kept only so tests can write rows as the service did before the version byte. */
    byte[] encryptLegacy(String secret) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.allocate(NONCE_BYTES + sealed.length)
                    .put(nonce)
                    .put(sealed)
                    .array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every JRE", e);
        }
    }

    private static byte[] associatedData(UUID endpointId) {
        return ByteBuffer.allocate(16)
                .putLong(endpointId.getMostSignificantBits())
                .putLong(endpointId.getLeastSignificantBits())
                .array();
    }
}
