package dev.cryptopay.service.money;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * How amounts are read and rendered. Money is exact: decimal amounts are {@code NUMERIC} in PostgreSQL and
 * {@link BigDecimal} here, rendered as JSON numbers without the trailing zeros the column adds; raw token units
 * ({@code NUMERIC(78,0)}, {@link BigInteger}) are rendered as decimal strings, since no JSON number type holds a
 * uint256 exactly in every client.
 */
public final class Amounts {

    private Amounts() {}

    /** A decimal amount as a JSON number: 10.5, never 10.500000000000000000 or 1.05E+1. */
    public static BigDecimal jsonNumber(BigDecimal amount) {
        return amount == null ? null : normalize(amount);
    }

    /** A decimal amount as a string in plain notation: "10.5". */
    public static String plainString(BigDecimal amount) {
        return normalize(amount).toPlainString();
    }

    /** Raw token units as a decimal string: "1000000". */
    public static String tokenUnits(BigInteger units) {
        return units.toString();
    }

    /**
     * Strips trailing zeros and keeps the scale non-negative. Only for bounded values: the caller checks
     * {@link #integerDigits} first, because 1e100000000 would be materialised digit by digit.
     */
    public static BigDecimal normalize(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }

    /** Digits before the decimal point, computed without arithmetic on the value (cheap for any exponent). */
    public static long integerDigits(BigDecimal value) {
        return (long) value.precision() - value.scale();
    }
}
