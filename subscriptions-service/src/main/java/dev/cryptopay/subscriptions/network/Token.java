package dev.cryptopay.subscriptions.network;

import dev.cryptopay.service.money.Amounts;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Optional;
import java.util.UUID;

/** An ERC-20 token plans can bill in: its currency, contract (EIP-55) and decimals on one network. */
public record Token(
        UUID id, UUID networkId, UUID currencyId, String currencyCode, String contractAddress, int decimals) {

    /** Raw base units as token units in plain notation, without trailing zeros: 10000000 at 6 decimals is "10". */
    public String format(BigInteger baseUnits) {
        return Amounts.plainString(new BigDecimal(baseUnits, decimals));
    }

    /** Token units as raw base units; empty when the value is finer than the token's smallest unit. */
    public Optional<BigInteger> baseUnits(BigDecimal units) {
        try {
            return Optional.of(units.movePointRight(decimals).toBigIntegerExact());
        } catch (ArithmeticException finerThanOneBaseUnit) {
            return Optional.empty();
        }
    }
}
