package dev.cryptopay.gateway.keys;

import dev.cryptopay.auth.Mode;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.util.encoders.Base32;

/**
 * A merchant's publishable key: {@code pk_test_} or {@code pk_live_} followed by exactly 32 characters of the
 * RFC 4648 base32 alphabet ({@code A-Z2-7}), the same shape as an API key with its own prefix.
 *
 * <p>Unlike an API key it is <em>not</em> a secret: it is meant to sit in customer-side code (a web page, a wallet
 * app) and names the merchant in {@code merchant_key} of {@code POST /public/subscriptions/link/payment}. It carries
 * no public key and can sign nothing, so the gateway accepts it nowhere else. The prefix decides the mode.
 *
 * @param value the full key
 * @param mode  the mode encoded in the key's prefix
 */
public record PublishableKey(String value, Mode mode) {

    /** What every publishable key starts with. */
    public static final String PREFIX = "pk_";

    private static final int RANDOM_BYTES = 20;
    private static final int DISPLAY_PREFIX_LENGTH = 12;
    private static final Pattern FORMAT = Pattern.compile("pk_(test|live)_[A-Z2-7]{32}");

    /** @throws IllegalArgumentException if the value is malformed or the mode disagrees with its prefix */
    public PublishableKey {
        Objects.requireNonNull(mode, "mode");
        if (modeOf(value) != mode) {
            throw new IllegalArgumentException("Publishable key prefix disagrees with mode " + mode.wireName());
        }
    }

    /** @throws IllegalArgumentException if the text is not a well-formed publishable key */
    public static PublishableKey parse(String text) {
        return new PublishableKey(text, modeOf(text));
    }

    /** Cheap format check; never throws. */
    public static boolean isWellFormed(String text) {
        return text != null && FORMAT.matcher(text).matches();
    }

    /** A new key from 20 bytes of {@code random}. */
    public static PublishableKey generate(Mode mode, SecureRandom random) {
        Objects.requireNonNull(mode, "mode");
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return new PublishableKey(PREFIX + mode.wireName() + "_" + Base32.toBase32String(bytes), mode);
    }

    /** The first 12 characters (e.g. {@code pk_test_ABCD}), as logged for every key type. */
    public String displayPrefix() {
        return value.substring(0, DISPLAY_PREFIX_LENGTH);
    }

    @Override
    public String toString() {
        return displayPrefix() + "…";
    }

    private static Mode modeOf(String text) {
        Matcher matcher = text == null ? null : FORMAT.matcher(text);
        if (matcher == null || !matcher.matches()) {
            throw new IllegalArgumentException(
                    "Malformed publishable key: expected pk_test_ or pk_live_ followed by 32 characters A-Z2-7");
        }
        return Mode.fromWireName(matcher.group(1));
    }
}
