package dev.cryptopay.paymentlinks.refund;

import dev.cryptopay.paymentlinks.transaction.TransactionRepository.Claimed;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Which transfers a completed refund of the link's money returned, so each reads {@code refunded} once all of it is
 * back: the amount is spread over the transfers in the order given (see
 * {@link dev.cryptopay.paymentlinks.transaction.TransactionRepository#lockRefundable}), first over what no open or
 * pending refund of a transfer claims, then (should two refunds have raced) over what is left of each transfer.
 */
final class RefundAllocation {

    private RefundAllocation() {}

    /** Transfer id → the part of {@code amount} it returned, in order; parts are positive and sum to at most it. */
    static Map<UUID, BigDecimal> of(List<Claimed> transfers, BigDecimal amount) {
        Map<UUID, BigDecimal> parts = new LinkedHashMap<>();
        BigDecimal left = amount;
        for (boolean respectClaims : new boolean[] {true, false}) {
            for (Claimed transfer : transfers) {
                if (left.signum() <= 0) {
                    return parts;
                }
                BigDecimal taken = parts.getOrDefault(transfer.transaction().id(), BigDecimal.ZERO);
                BigDecimal room = transfer.transaction().unrefunded().subtract(taken);
                if (respectClaims) {
                    room = room.subtract(transfer.claimed());
                }
                if (room.signum() > 0) {
                    BigDecimal part = room.min(left);
                    parts.merge(transfer.transaction().id(), part, BigDecimal::add);
                    left = left.subtract(part);
                }
            }
        }
        return parts;
    }
}
