package dev.cryptopay.paymentlinks.currency;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Optional;

/**
 * How a currency is paid on one network.
 *
 * @param tokenContract the ERC-20 contract, or null when the currency is the network's native coin
 * @param decimals      base units per whole unit as a power of ten; null when the currency cannot be paid there yet
 */
public record PaymentNetwork(String name, long chainId, String tokenContract, Integer decimals) {

    public boolean payable() {
        return decimals != null;
    }

    public boolean nativeCoin() {
        return tokenContract == null;
    }

    /**
     * The amount in base units (e.g. 10.5 USDC → 10500000), or empty when it has more decimal places than the token
     * can carry. The amount is already bounded (at most 38 digits), so this is cheap.
     */
    public Optional<BigInteger> baseUnits(BigDecimal amount) {
        BigDecimal scaled = amount.movePointRight(decimals);
        try {
            return Optional.of(scaled.toBigIntegerExact());
        } catch (ArithmeticException fractional) {
            return Optional.empty();
        }
    }
}
