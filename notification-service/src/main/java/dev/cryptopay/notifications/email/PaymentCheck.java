package dev.cryptopay.notifications.email;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;

/**
 * What a reminder says of the next pull: when it falls due and, where the chain was read, whether the wallet's balance
 * and its allowance to the subscription contract cover it.
 *
 * @param balance the wallet's balance in token units, or null when the chain was not read
 * @param allowance what the contract may take, in token units ("unlimited" for the usual maximum), or null
 */
public record PaymentCheck(
        Instant dueAt, String balance, String allowance, Boolean balanceCovers, Boolean allowanceCovers) {

    /** An allowance this large is what wallets set for "unlimited" (2^255 and more). */
    private static final BigInteger UNLIMITED = BigInteger.ONE.shiftLeft(255);

    /** The chain was not read (no JSON-RPC for it): the reminder says what to check, not what it found. */
    public static PaymentCheck unread(Instant dueAt) {
        return new PaymentCheck(dueAt, null, null, null, null);
    }

    /** What the chain showed, in base units, against the amount due. */
    public static PaymentCheck read(
            Instant dueAt, BigInteger balance, BigInteger allowance, BigInteger amount, int decimals) {
        return new PaymentCheck(
                dueAt,
                units(balance, decimals),
                allowance.compareTo(UNLIMITED) >= 0 ? "unlimited" : units(allowance, decimals),
                balance.compareTo(amount) >= 0,
                allowance.compareTo(amount) >= 0);
    }

    public boolean checked() {
        return balanceCovers != null;
    }

    public boolean covered() {
        return checked() && balanceCovers && allowanceCovers;
    }

    private static String units(BigInteger baseUnits, int decimals) {
        BigDecimal value = new BigDecimal(baseUnits, decimals).stripTrailingZeros();
        return value.signum() == 0 ? "0" : value.toPlainString();
    }
}
