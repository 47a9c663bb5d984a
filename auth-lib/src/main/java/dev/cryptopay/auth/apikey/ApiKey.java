package dev.cryptopay.auth.apikey;

import dev.cryptopay.auth.Mode;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.util.encoders.Base32;

/**
 * A merchant API key: {@code mk_test_} or {@code mk_live_} followed by exactly 32 characters of the
 * RFC 4648 base32 alphabet ({@code A-Z2-7}, upper case, no padding).
 *
 * <p>The mode is part of the key so a test key can never be mistaken for a live one, and the strict
 * format lets the gateway reject junk before touching the key store. The value is a secret:
 * {@link #toString()} and every exception message show at most {@link #displayPrefix()}.
 *
 * @param value the full key as sent in the {@code X-API-Key} header
 * @param mode  the mode encoded in the key's prefix
 */
public record ApiKey(String value, Mode mode) {

    /** Length of the random part; 20 random bytes encode to exactly 32 base32 characters. */
    private static final int RANDOM_PART_LENGTH = 32;

    private static final int RANDOM_BYTES = 20;
    private static final int DISPLAY_PREFIX_LENGTH = 12;
    private static final Pattern FORMAT = Pattern.compile("mk_(test|live)_[A-Z2-7]{" + RANDOM_PART_LENGTH + "}");

    /**
     * Validates that {@code value} is well formed and that {@code mode} matches its prefix.
     *
     * @throws IllegalArgumentException if the value is malformed or the mode disagrees with the prefix
     */
    public ApiKey {
        Objects.requireNonNull(mode, "mode");
        Mode prefixMode = modeOf(value);
        if (prefixMode != mode) {
            throw new IllegalArgumentException(
                    "API key prefix says " + prefixMode.wireName() + " but mode is " + mode.wireName());
        }
    }

    /**
     * Parses a key as received from a client.
     *
     * @throws IllegalArgumentException if the text is not a well-formed key (the message never contains the key)
     */
    public static ApiKey parse(String text) {
        return new ApiKey(text, modeOf(text));
    }

    /** Cheap format check, e.g. to answer 401 before any key lookup. Never throws. */
    public static boolean isWellFormed(String text) {
        return text != null && FORMAT.matcher(text).matches();
    }

    /** Creates a new key from 20 bytes of {@code random}. */
    public static ApiKey generate(Mode mode, SecureRandom random) {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(random, "random");
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return new ApiKey("mk_" + mode.wireName() + "_" + Base32.toBase32String(bytes), mode);
    }

    /** The first 12 characters (e.g. {@code mk_test_ABCD}): enough to recognise a key in logs and UIs, useless to an attacker. */
    public String displayPrefix() {
        return value.substring(0, DISPLAY_PREFIX_LENGTH);
    }

    /** Shows only {@link #displayPrefix()} so that logging an {@code ApiKey} never leaks it. */
    @Override
    public String toString() {
        return displayPrefix() + "…";
    }

    private static Mode modeOf(String text) {
        if (text == null) {
            throw new IllegalArgumentException("API key is missing");
        }
        Matcher matcher = FORMAT.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("Malformed API key: expected mk_test_ or mk_live_ followed by "
                    + RANDOM_PART_LENGTH + " characters A-Z2-7 (got " + text.length() + " characters)");
        }
        return Mode.fromWireName(matcher.group(1));
    }
}
