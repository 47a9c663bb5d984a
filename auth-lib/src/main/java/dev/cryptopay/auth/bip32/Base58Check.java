package dev.cryptopay.auth.bip32;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * Base58Check, the text encoding of BIP-32 extended keys: the payload and the first four bytes of its double
 * SHA-256, written in Bitcoin's 58-letter alphabet (leading zero bytes as '1'). Only an encoding; the key checks and
 * curve arithmetic are in {@link ExtendedPublicKey}.
 */
public final class Base58Check {

    private static final String ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    private static final BigInteger BASE = BigInteger.valueOf(58);
    /** Longer text cannot be an extended key; refusing it first keeps the arithmetic bounded. */
    private static final int MAX_TEXT = 200;

    private Base58Check() {}

    /** The payload, or an {@link IllegalArgumentException} naming what is wrong. */
    public static byte[] decode(String text) {
        if (text.isEmpty() || text.length() > MAX_TEXT) {
            throw new IllegalArgumentException("is not an extended public key (wrong length)");
        }
        BigInteger value = BigInteger.ZERO;
        int leadingZeros = 0;
        boolean leading = true;
        for (int i = 0; i < text.length(); i++) {
            int digit = ALPHABET.indexOf(text.charAt(i));
            if (digit < 0) {
                throw new IllegalArgumentException("contains a character that is not Base58");
            }
            if (leading && digit == 0) {
                leadingZeros++;
            } else {
                leading = false;
            }
            value = value.multiply(BASE).add(BigInteger.valueOf(digit));
        }
        byte[] magnitude = value.signum() == 0 ? new byte[0] : value.toByteArray();
        int skip = magnitude.length > 0 && magnitude[0] == 0 ? 1 : 0;
        byte[] bytes = new byte[leadingZeros + magnitude.length - skip];
        System.arraycopy(magnitude, skip, bytes, leadingZeros, magnitude.length - skip);
        if (bytes.length < 5) {
            throw new IllegalArgumentException("is not an extended public key (wrong length)");
        }
        byte[] payload = Arrays.copyOfRange(bytes, 0, bytes.length - 4);
        byte[] checksum = Arrays.copyOfRange(bytes, bytes.length - 4, bytes.length);
        if (!MessageDigest.isEqual(checksum, checksum(payload))) {
            throw new IllegalArgumentException("has a wrong checksum (a character is mistyped or missing)");
        }
        return payload;
    }

    public static String encode(byte[] payload) {
        byte[] bytes = Arrays.copyOf(payload, payload.length + 4);
        System.arraycopy(checksum(payload), 0, bytes, payload.length, 4);
        StringBuilder text = new StringBuilder();
        BigInteger value = new BigInteger(1, bytes);
        while (value.signum() > 0) {
            BigInteger[] divided = value.divideAndRemainder(BASE);
            text.append(ALPHABET.charAt(divided[1].intValue()));
            value = divided[0];
        }
        for (int i = 0; i < bytes.length && bytes[i] == 0; i++) {
            text.append(ALPHABET.charAt(0));
        }
        return text.reverse().toString();
    }

    private static byte[] checksum(byte[] payload) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            return Arrays.copyOf(sha256.digest(sha256.digest(payload)), 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
