package dev.cryptopay.gateway.keys;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.apikey.KeyFormat;
import java.security.SecureRandom;

/**
 * A merchant's publishable key: {@code pk_test_} or {@code pk_live_} followed by exactly 32 characters of the
 * RFC 4648 base32 alphabet ({@code A-Z2-7}), the same shape as an API key with its own prefix, parsed by the same
 * code ({@link KeyFormat#PUBLISHABLE_KEY}).
 *
 * <p>Unlike an API key it is <em>not</em> a secret: it is meant to sit in customer-side code (a web page, a wallet
 * app) and names the merchant in {@code merchant_key} of {@code POST /public/subscriptions/link/payment}. It carries
 * no public key and can sign nothing, so the gateway accepts it nowhere else. The prefix decides the mode.
 *
 * @param value the full key
 * @param mode  the mode encoded in the key's prefix
 */
public record PublishableKey(String value, Mode mode) {

    private static final KeyFormat FORMAT = KeyFormat.PUBLISHABLE_KEY;

    /** What every publishable key starts with. */
    public static final String PREFIX = FORMAT.prefix();

    /** @throws IllegalArgumentException if the value is malformed or the mode disagrees with its prefix */
    public PublishableKey {
        FORMAT.requireMode(value, mode);
    }

    /** @throws IllegalArgumentException if the text is not a well-formed publishable key */
    public static PublishableKey parse(String text) {
        return new PublishableKey(text, FORMAT.modeOf(text));
    }

    /** Cheap format check; never throws. */
    public static boolean isWellFormed(String text) {
        return FORMAT.isWellFormed(text);
    }

    /** A new key from 20 bytes of {@code random}. */
    public static PublishableKey generate(Mode mode, SecureRandom random) {
        return new PublishableKey(FORMAT.generate(mode, random), mode);
    }

    /** The first 12 characters (e.g. {@code pk_test_ABCD}), as logged for every key type. */
    public String displayPrefix() {
        return KeyFormat.displayPrefix(value);
    }

    @Override
    public String toString() {
        return displayPrefix() + "…";
    }
}
