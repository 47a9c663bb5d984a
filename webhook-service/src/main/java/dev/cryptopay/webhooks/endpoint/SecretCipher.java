package dev.cryptopay.webhooks.endpoint;

import dev.cryptopay.webhooks.config.WebhookProperties;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Encrypts endpoint signing secrets at rest with AES-256-GCM, so a copy of the database alone does not let anyone
 * forge webhooks. Stored form: 12-byte random nonce followed by ciphertext and tag.
 */
@Component
public class SecretCipher {

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

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

    public byte[] encrypt(String secret) {
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

    public String decrypt(byte[] stored) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, stored, 0, NONCE_BYTES));
            byte[] plain = cipher.doFinal(stored, NONCE_BYTES, stored.length - NONCE_BYTES);
            return new String(plain, StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Endpoint secret cannot be decrypted: wrong encryption key?", e);
        }
    }
}
