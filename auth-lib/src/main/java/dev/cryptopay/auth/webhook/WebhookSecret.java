package dev.cryptopay.auth.webhook;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;

/**
 * Per-endpoint webhook signing secrets: {@code whsec_} followed by standard Base64 of 32 random bytes.
 *
 * <p><strong>The HMAC key is the UTF-8 bytes of the whole secret string, prefix included</strong>, exactly
 * as shown to the merchant. Receivers paste the string into their HMAC library as-is and never need
 * to strip the prefix or Base64-decode anything, which removes the most common integration mistake.
 */
public final class WebhookSecret {

    /** Prefix that makes secrets recognisable (and greppable by secret scanners). */
    public static final String PREFIX = "whsec_";

    private static final int RANDOM_BYTES = 32;

    private WebhookSecret() {}

    /** A new secret from 32 bytes of {@code random}. */
    public static String generate(SecureRandom random) {
        Objects.requireNonNull(random, "random");
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return PREFIX + Base64.getEncoder().encodeToString(bytes);
    }

    /** Whether {@code text} is {@code whsec_} plus canonical padded Base64 of exactly 32 bytes. Never throws. */
    public static boolean isWellFormed(String text) {
        if (text == null || !text.startsWith(PREFIX)) {
            return false;
        }
        String encoded = text.substring(PREFIX.length());
        try {
            byte[] decoded = Base64.getDecoder().decode(encoded);
            return decoded.length == RANDOM_BYTES
                    && Base64.getEncoder().encodeToString(decoded).equals(encoded);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The HMAC key for a secret: UTF-8 bytes of the whole string as shown to the merchant. */
    static byte[] hmacKey(String secret) {
        Objects.requireNonNull(secret, "secret");
        if (secret.isEmpty()) {
            throw new IllegalArgumentException("Webhook secret is empty");
        }
        return secret.getBytes(StandardCharsets.UTF_8);
    }
}
