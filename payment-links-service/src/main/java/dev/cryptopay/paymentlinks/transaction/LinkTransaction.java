package dev.cryptopay.paymentlinks.transaction;

import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkChanges.Payment;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * One blockchain transaction paying (or trying to pay) a link.
 *
 * @param requiredConfirmations how many confirmations the watcher waits for before reporting it confirmed; null when
 *                              it did not say
 * @param countedAsUse          whether a completed use of the link consumed this transaction (the one that completed
 *                              it, and any partial payments it topped up; a late one the merchant resolved)
 * @param late                  it arrived after the link stopped taking payments: recorded, but it completes nothing
 *                              unless the merchant resolves it
 */
public record LinkTransaction(
        UUID id,
        UUID paymentLinkId,
        String network,
        String txHash,
        String payerAddress,
        BigDecimal cryptoAmount,
        BigDecimal fiatAmount,
        TransactionStatus status,
        int confirmations,
        Integer requiredConfirmations,
        boolean countedAsUse,
        boolean late,
        Instant createdAt,
        Instant updatedAt) {

    /**
     * What the link's events about this transaction say: its hash, and whether they are a late payment's step
     * (pending, confirmed, failed). A refund is not one of its steps, so its event is never late.
     */
    Payment payment() {
        return new Payment(txHash, late && status != TransactionStatus.REFUNDED, cryptoAmount, confirmations);
    }

    /**
     * The same transaction marked late: it was in time when first seen, but by its confirmation the link could no
     * longer count it (its uses were taken, or it was cancelled).
     */
    LinkTransaction asLate(Instant now) {
        return new LinkTransaction(
                id,
                paymentLinkId,
                network,
                txHash,
                payerAddress,
                cryptoAmount,
                fiatAmount,
                status,
                confirmations,
                requiredConfirmations,
                countedAsUse,
                true,
                createdAt,
                now);
    }

    LinkTransaction withStatus(TransactionStatus newStatus, int newConfirmations, boolean counted, Instant now) {
        return new LinkTransaction(
                id,
                paymentLinkId,
                network,
                txHash,
                payerAddress,
                cryptoAmount,
                fiatAmount,
                newStatus,
                newConfirmations,
                requiredConfirmations,
                counted,
                late,
                createdAt,
                now);
    }

    /** The same transaction with the confirmation counts of a newer report (a null required count keeps ours). */
    LinkTransaction withProgress(int newConfirmations, Integer newRequired, Instant now) {
        return new LinkTransaction(
                id,
                paymentLinkId,
                network,
                txHash,
                payerAddress,
                cryptoAmount,
                fiatAmount,
                status,
                newConfirmations,
                newRequired == null ? requiredConfirmations : newRequired,
                countedAsUse,
                late,
                createdAt,
                now);
    }
}
