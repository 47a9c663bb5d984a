package dev.cryptopay.auth.apikey;

import dev.cryptopay.auth.Mode;
import java.security.SecureRandom;

/**
 * A merchant API key: {@code mk_test_} or {@code mk_live_} followed by exactly 32 characters of the
 * RFC 4648 base32 alphabet ({@code A-Z2-7}, upper case, no padding); {@link KeyFormat#API_KEY} parses it.
 *
 * <p>The mode is part of the key so a test key can never be mistaken for a live one, and the strict
 * format lets the gateway reject junk before touching the key store. The value is a secret:
 * {@link #toString()} and every exception message show at most {@link #displayPrefix()}.
 *
 * @param value the full key as sent in the {@code X-API-Key} header
 * @param mode  the mode encoded in the key's prefix
 */
public record ApiKey(String value, Mode mode) {

    private static final KeyFormat FORMAT = KeyFormat.API_KEY;

    /**
     * Validates that {@code value} is well formed and that {@code mode} matches its prefix.
     *
     * @throws IllegalArgumentException if the value is malformed or the mode disagrees with the prefix
     */
    public ApiKey {
        FORMAT.requireMode(value, mode);
    }

    /**
     * Parses a key as received from a client.
     *
     * @throws IllegalArgumentException if the text is not a well-formed key (the message never contains the key)
     */
    public static ApiKey parse(String text) {
        return new ApiKey(text, FORMAT.modeOf(text));
    }

    /** Cheap format check, e.g. to answer 401 before any key lookup. Never throws. */
    public static boolean isWellFormed(String text) {
        return FORMAT.isWellFormed(text);
    }

    /** Creates a new key from 20 bytes of {@code random}. */
    public static ApiKey generate(Mode mode, SecureRandom random) {
        return new ApiKey(FORMAT.generate(mode, random), mode);
    }

    /** The first 12 characters (e.g. {@code mk_test_ABCD}): enough to recognise a key in logs and UIs, useless to an attacker. */
    public String displayPrefix() {
        return KeyFormat.displayPrefix(value);
    }

    /** Shows only {@link #displayPrefix()} so that logging an {@code ApiKey} never leaks it. */
    @Override
    public String toString() {
        return displayPrefix() + "…";
    }
}
