package dev.cryptopay.chainwatcher.watch;

import java.math.BigInteger;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

/**
 * A payment link's deposit address on one chain.
 *
 * @param depositAddress lower-case 0x address
 * @param tokenContract  lower-case ERC-20 contract, or null for the chain's native coin
 * @param backfilled     whether blocks scanned before the address arrived were searched for it
 * @param linkCreatedAt  when the link was created (its {@code payment.created} event's {@code created_at}); null when
 *                       the event did not say: the whole look-back is then searched
 */
public record WatchedAddress(
        UUID paymentLinkId,
        long chainId,
        String network,
        String depositAddress,
        String tokenContract,
        int decimals,
        BigInteger amountBaseUnits,
        Instant expiresAt,
        Instant watchUntil,
        boolean backfilled,
        Instant linkCreatedAt) {

    public boolean nativeCoin() {
        return tokenContract == null;
    }

    /** Addresses are compared lower-case (EIP-55 case is only a checksum). */
    public static String normalise(String address) {
        return address == null ? null : address.toLowerCase(Locale.ROOT);
    }
}
