package dev.cryptopay.paymentlinks.receiving;

import dev.cryptopay.auth.bip32.ExtendedPublicKey;
import java.util.Locale;
import java.util.regex.Pattern;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;

/** The EIP-55 Ethereum address of a key (the same on every EVM network): Keccak and checksum casing by web3j. */
public final class EthereumAddress {

    private static final Pattern SHAPE = Pattern.compile("0x[0-9a-fA-F]{40}");

    private EthereumAddress() {}

    public static String of(ExtendedPublicKey key) {
        return Keys.toChecksumAddress(Numeric.toHexString(Keys.getAddress(key.uncompressedPublicKey())));
    }

    /** Whether {@code text} is {@code 0x} and 40 hexadecimal digits (any case). */
    public static boolean hasShape(String text) {
        return text != null && SHAPE.matcher(text).matches();
    }

    /**
     * Whether {@code text} is an address a merchant may send money to: {@code 0x} and 40 hexadecimal digits, and, when
     * its letters mix cases, exactly the EIP-55 checksum casing (all lower or all upper case carries no checksum).
     * A mixed-case address with a wrong checksum is a typing error, never guessed at.
     */
    public static boolean isValid(String text) {
        if (!hasShape(text)) {
            return false;
        }
        String digits = text.substring(2);
        boolean uniform =
                digits.equals(digits.toLowerCase(Locale.ROOT)) || digits.equals(digits.toUpperCase(Locale.ROOT));
        return uniform || Keys.toChecksumAddress(text).equals(text);
    }

    /** The EIP-55 form of an address of the right shape ({@link #hasShape}). */
    public static String checksummed(String address) {
        return Keys.toChecksumAddress(address.toLowerCase(Locale.ROOT));
    }
}
