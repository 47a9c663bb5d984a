package dev.cryptopay.auth.apikey;

import dev.cryptopay.auth.Mode;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.util.encoders.Base32;

/**
 * The form every merchant key shares: a prefix naming its kind, the mode ({@code test_} or {@code live_}), then exactly
 * 32 characters of the RFC 4648 base32 alphabet ({@code A-Z2-7}, upper case, no padding), which encode 20 random
 * bytes. One parser for both kinds, so they accept and refuse exactly the same forms; the prefixes differ, so no text
 * is ever a key of both kinds. Refusal messages never contain the key.
 */
public enum KeyFormat {
    /** The secret API key that signs requests ({@link ApiKey}). */
    API_KEY("mk_", "API key"),
    /** The public key customer-side code names a merchant with; the gateway's {@code PublishableKey}. */
    PUBLISHABLE_KEY("pk_", "publishable key");

    private static final int RANDOM_BYTES = 20;
    private static final int RANDOM_PART_LENGTH = 32;
    private static final int DISPLAY_PREFIX_LENGTH = 12;

    private final String prefix;
    private final String noun;
    private final Pattern pattern;

    KeyFormat(String prefix, String noun) {
        this.prefix = prefix;
        this.noun = noun;
        this.pattern = Pattern.compile(prefix + "(test|live)_[A-Z2-7]{" + RANDOM_PART_LENGTH + "}");
    }

    /** What every key of this kind starts with, e.g. {@code mk_}. */
    public String prefix() {
        return prefix;
    }

    /** Cheap format check, e.g. to answer 401 before any key lookup. Never throws. */
    public boolean isWellFormed(String text) {
        return text != null && pattern.matcher(text).matches();
    }

    /**
     * The mode a well-formed key's prefix names.
     *
     * @throws IllegalArgumentException if the text is not a well-formed key of this kind
     */
    public Mode modeOf(String text) {
        if (text == null) {
            throw new IllegalArgumentException(capitalised(noun) + " is missing");
        }
        Matcher matcher = pattern.matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("Malformed " + noun + ": expected " + prefix + "test_ or " + prefix
                    + "live_ followed by " + RANDOM_PART_LENGTH + " characters A-Z2-7 (got " + text.length()
                    + " characters)");
        }
        return Mode.fromWireName(matcher.group(1));
    }

    /**
     * Checks that {@code value} is a well-formed key whose prefix names {@code mode}.
     *
     * @throws IllegalArgumentException if the value is malformed or its prefix names the other mode
     */
    public void requireMode(String value, Mode mode) {
        Objects.requireNonNull(mode, "mode");
        Mode prefixMode = modeOf(value);
        if (prefixMode != mode) {
            throw new IllegalArgumentException(
                    capitalised(noun) + " prefix says " + prefixMode.wireName() + " but mode is " + mode.wireName());
        }
    }

    /** A new key of this kind from 20 bytes of {@code random}. */
    public String generate(Mode mode, SecureRandom random) {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(random, "random");
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return prefix + mode.wireName() + "_" + Base32.toBase32String(bytes);
    }

    /**
     * The first 12 characters of a well-formed key (e.g. {@code mk_test_ABCD}): enough to recognise it in logs and
     * UIs, useless to an attacker.
     */
    public static String displayPrefix(String value) {
        return value.substring(0, DISPLAY_PREFIX_LENGTH);
    }

    private static String capitalised(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
