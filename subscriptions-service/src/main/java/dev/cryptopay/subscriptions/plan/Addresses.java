package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.TextField;
import java.util.Locale;
import java.util.regex.Pattern;
import org.web3j.crypto.Keys;

/** EVM addresses as plans accept them: 0x + 40 hex digits, either all lower-case or in EIP-55 checksum form. */
public final class Addresses {

    public static final String ZERO = "0x0000000000000000000000000000000000000000";

    private static final Pattern HEX = Pattern.compile("0x[0-9a-fA-F]{40}");

    private Addresses() {}

    /** Whether the text is an address: lower-case hex, or mixed case that matches its EIP-55 checksum. */
    public static boolean isValid(String text) {
        if (!HEX.matcher(text).matches()) {
            return false;
        }
        String digits = text.substring(2);
        return digits.equals(digits.toLowerCase(Locale.ROOT)) || text.equals(Keys.toChecksumAddress(text));
    }

    /** The EIP-55 form of a valid address. */
    public static String checksummed(String address) {
        return Keys.toChecksumAddress(address.toLowerCase(Locale.ROOT));
    }

    /** A request field holding an address (its own rules; see {@link #isValid}). */
    public static TextField field(String name) {
        return Field.string(name).length(1, 100).satisfying(Addresses::isValid, RULE);
    }

    /** How {@link #field} describes a bad address. */
    public static final String RULE = "must be a 0x-prefixed 20-byte hex address, lower-case or EIP-55 checksummed";

    public static boolean same(String a, String b) {
        return a.equalsIgnoreCase(b);
    }
}
