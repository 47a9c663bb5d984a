package dev.cryptopay.service.request;

import dev.cryptopay.service.money.Amounts;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A non-negative whole number that fits in {@code bits} bits, as a JSON number ({@link #unsigned}) or a string of
 * decimal digits ({@link #unsignedDigits}); zero is allowed unless {@link #positive()}.
 */
public final class UnsignedField extends Field<BigInteger, UnsignedField> {

    private static final Pattern DIGITS = Pattern.compile("[0-9]+");

    private final int bits;
    private final boolean digits;
    private boolean positive;

    UnsignedField(String name, int bits, boolean digits) {
        super(name);
        this.bits = bits;
        this.digits = digits;
    }

    public UnsignedField positive() {
        declaring();
        this.positive = true;
        return this;
    }

    @Override
    BigInteger convert(JsonNode value, String path, Violations violations) {
        BigInteger number;
        if (digits) {
            if (!value.isString()) {
                return reject(violations, path, path + " must be a string of decimal digits");
            }
            String text = value.asString();
            // uint256 has at most 78 digits; a longer string is refused before it is parsed.
            if (text.length() > 80 || !DIGITS.matcher(text).matches()) {
                return reject(violations, path, path + " must be a string of decimal digits");
            }
            number = new BigInteger(text);
        } else {
            if (!value.isNumber()) {
                return reject(violations, path, path + " must be an integer");
            }
            BigDecimal decimal = value.decimalValue();
            if (Amounts.integerDigits(decimal) > 80) {
                return reject(violations, path, decimal.signum() < 0 ? negative(path) : tooLarge(path));
            }
            decimal = Amounts.normalize(decimal);
            if (decimal.scale() > 0) {
                return reject(violations, path, path + " must be an integer");
            }
            number = decimal.toBigIntegerExact();
        }
        if (number.signum() < 0) {
            return reject(violations, path, negative(path));
        }
        if (positive && number.signum() == 0) {
            return reject(violations, path, path + " must be greater than 0");
        }
        if (number.bitLength() > bits) {
            return reject(violations, path, tooLarge(path));
        }
        return number;
    }

    private static String negative(String path) {
        return path + " must not be negative";
    }

    private String tooLarge(String path) {
        return path + " must be at most " + BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE) + " (uint" + bits
                + ")";
    }
}
