package dev.cryptopay.chainwatcher.keeper;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import java.math.BigInteger;
import java.util.Optional;

/**
 * The fees a transaction offers, in wei per gas: EIP-1559's {@code maxFeePerGas} and {@code maxPriorityFeePerGas}, or
 * on a chain without a base fee a legacy gas price (in {@code maxFeePerGas}; {@code priorityFeePerGas} null). A
 * network's ceiling ({@code keeper-max-fee-gwei}, {@code keeper-max-priority-fee-gwei}) is a {@code Fees} too.
 */
record Fees(BigInteger maxFeePerGas, BigInteger priorityFeePerGas) {

    /** A replacement offers at least 9/8 of what it replaces: 12.5 %, above the 10 % nodes ask for. */
    private static final BigInteger RAISE_NUMERATOR = BigInteger.valueOf(9);

    private static final BigInteger RAISE_DENOMINATOR = BigInteger.valueOf(8);

    /** The network's ceiling. */
    static Fees ceiling(Network network) {
        return new Fees(network.keeperMaxFeeWei(), network.keeperMaxPriorityFeeWei());
    }

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

    /** Whether these fees ask more than {@code ceiling} allows (either field). */
    boolean above(Fees ceiling) {
        return maxFeePerGas.compareTo(ceiling.maxFeePerGas) > 0
                || (!legacy() && priorityFeePerGas.compareTo(ceiling.priorityFeePerGas) > 0);
    }

    /** These fees, each at most {@code ceiling}'s (the tip never above the max fee). */
    Fees capped(Fees ceiling) {
        BigInteger fee = maxFeePerGas.min(ceiling.maxFeePerGas);
        return legacy()
                ? new Fees(fee, null)
                : new Fees(fee, priorityFeePerGas.min(ceiling.priorityFeePerGas).min(fee));
    }

    /**
     * The fees of a replacement of a transaction offering these, within {@code ceiling}: {@link #raised}, capped; empty
     * when the cap leaves less than the 12.5 % raise a node asks of a replacement (it would be refused).
     */
    Optional<Fees> raisedWithin(Fees current, Fees ceiling) {
        Fees raised = raised(current);
        Fees capped = raised.capped(ceiling);
        boolean enough = capped.maxFeePerGas.compareTo(raise(maxFeePerGas)) >= 0
                && (capped.legacy() || legacy() || capped.priorityFeePerGas.compareTo(raise(priorityFeePerGas)) >= 0);
        return enough ? Optional.of(capped) : Optional.empty();
    }

    private static BigInteger raise(BigInteger value) {
        BigInteger[] quotient = value.multiply(RAISE_NUMERATOR).divideAndRemainder(RAISE_DENOMINATOR);
        return quotient[1].signum() == 0 ? quotient[0] : quotient[0].add(BigInteger.ONE);
    }
}
