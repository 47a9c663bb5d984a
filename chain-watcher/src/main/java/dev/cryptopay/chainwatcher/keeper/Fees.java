package dev.cryptopay.chainwatcher.keeper;

import java.math.BigInteger;

/**
 * The fees a transaction offers, in wei per gas: EIP-1559's {@code maxFeePerGas} and {@code maxPriorityFeePerGas}, or
 * on a chain without a base fee a legacy gas price (in {@code maxFeePerGas}; {@code priorityFeePerGas} null).
 */
record Fees(BigInteger maxFeePerGas, BigInteger priorityFeePerGas) {

    /** A replacement offers at least 9/8 of what it replaces: 12.5 %, above the 10 % nodes ask for. */
    private static final BigInteger RAISE_NUMERATOR = BigInteger.valueOf(9);

    private static final BigInteger RAISE_DENOMINATOR = BigInteger.valueOf(8);

    boolean legacy() {
        return priorityFeePerGas == null;
    }

    /**
     * What to offer now: twice the base fee plus the node's suggested tip (still enough after six full blocks of base
     * fee rises), or the node's gas price on a chain without a base fee.
     */
    static Fees current(BigInteger baseFeePerGas, BigInteger tipOrGasPrice) {
        if (baseFeePerGas == null) {
            return new Fees(tipOrGasPrice, null);
        }
        return new Fees(baseFeePerGas.shiftLeft(1).add(tipOrGasPrice), tipOrGasPrice);
    }

    /** What a replacement of a transaction offering these fees offers: each raised by 12.5 % at least, or current. */
    Fees raised(Fees current) {
        BigInteger fee = raise(maxFeePerGas).max(current.maxFeePerGas);
        if (legacy() || current.legacy()) {
            return new Fees(fee, null);
        }
        BigInteger tip = raise(priorityFeePerGas).max(current.priorityFeePerGas);
        return new Fees(fee.max(tip), tip);
    }

    private static BigInteger raise(BigInteger value) {
        BigInteger[] quotient = value.multiply(RAISE_NUMERATOR).divideAndRemainder(RAISE_DENOMINATOR);
        return quotient[1].signum() == 0 ? quotient[0] : quotient[0].add(BigInteger.ONE);
    }
}
