package dev.cryptopay.paymentlinks.transaction;

import dev.cryptopay.paymentlinks.paymentlink.PaymentLinkChanges.Payment;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * One transfer on chain paying (or trying to pay) a link, identified by (network, tx_hash, log_index): a transaction
 * may hold several.
 *
 * @param logIndex              the Transfer log's index in its block; -1 for a native-coin transfer; -2 for a record
 *                              from before log indexes were kept (the next report of it sets the index)
 * @param tokenContract         the token that arrived, lower case; null for the native coin
 * @param asset                 what arrived, named for the merchant: the currency code when the catalogue knows it,
 *                              else the token contract ("native" for an unlisted native coin)
 * @param fiatAmount            its value in USD when confirmed, as the watcher priced it; null when unknown
 * @param refundedAmount        how much of it completed refunds returned; it is {@code refunded} once all of it is
 * @param requiredConfirmations how many confirmations the watcher waits for before reporting it confirmed; null when
 *                              it did not say
 * @param countedAsUse          whether a completed use of the link consumed this transaction (the one that completed
 *                              it, and any partial payments it topped up; a late one the merchant resolved)
 * @param late                  it arrived after the link stopped taking payments: recorded, but it completes nothing
 *                              unless the merchant resolves it
 * @param unexpectedAsset       it is not the link's token (another token, or the native coin for a token link, or
 *                              the reverse): recorded, never counted for the link
 */
public record LinkTransaction(
        UUID id,
        UUID paymentLinkId,
        String network,
        String txHash,
        int logIndex,
        String tokenContract,
        String asset,
        String payerAddress,
        BigDecimal cryptoAmount,
        BigDecimal fiatAmount,
        BigDecimal refundedAmount,
        TransactionStatus status,
        int confirmations,
        Integer requiredConfirmations,
        boolean countedAsUse,
        boolean late,
        boolean unexpectedAsset,
        Instant createdAt,
        Instant updatedAt) {

    /**
     * What the link's events about this transfer say: its hash, log index, token and amount, and whether they are a
     * late payment's step (pending, confirmed, failed). A refund is not one of its steps, so its event is never late.
     */
    Payment payment() {
        return new Payment(
                txHash,
                logIndex,
                tokenContract,
                asset,
                late && status != TransactionStatus.REFUNDED,
                unexpectedAsset,
                cryptoAmount,
                fiatAmount,
                confirmations);
    }

    /** What the {@code payment.refunded} of a refund of this transfer says about it: never a late payment's step. */
    public Payment refundedPayment() {
        return new Payment(
                txHash,
                logIndex,
                tokenContract,
                asset,
                false,
                unexpectedAsset,
                cryptoAmount,
                fiatAmount,
                confirmations);
    }

    /** What of it completed refunds have not returned yet. */
    public BigDecimal unrefunded() {
        return cryptoAmount.subtract(refundedAmount);
    }

    /**
     * The same transaction marked late: it was in time when first seen, but by its confirmation the link could no
     * longer count it (its uses were taken, or it was cancelled).
     */
    LinkTransaction asLate(Instant now) {
        return with(status, confirmations, requiredConfirmations, countedAsUse, true, fiatAmount, now);
    }

    LinkTransaction withStatus(TransactionStatus newStatus, int newConfirmations, boolean counted, Instant now) {
        return with(newStatus, newConfirmations, requiredConfirmations, counted, late, fiatAmount, now);
    }

    /**
     * The same transaction with the USD value a report brings: chain-watcher values a transfer when it confirms, so the
     * value arrives with the confirmed report of a transfer first recorded pending. Null keeps what is recorded.
     */
    LinkTransaction valuedAt(BigDecimal reportedFiat) {
        return reportedFiat == null
                ? this
                : with(status, confirmations, requiredConfirmations, countedAsUse, late, reportedFiat, updatedAt);
    }

    /** The same transaction with the confirmation counts of a newer report (a null required count keeps ours). */
    LinkTransaction withProgress(int newConfirmations, Integer newRequired, Instant now) {
        return with(
                status,
                newConfirmations,
                newRequired == null ? requiredConfirmations : newRequired,
                countedAsUse,
                late,
                fiatAmount,
                now);
    }

    /**
     * A failed transfer seen on chain again (a reorganisation took it away and a later block holds it again): it
     * takes the new status and counts, and is late when it was, or when the link no longer takes payments.
     */
    LinkTransaction seenAgain(TransactionReport report, boolean lateNow, Instant now) {
        return with(
                report.status(),
                report.confirmations(),
                report.requiredConfirmations() == null ? requiredConfirmations : report.requiredConfirmations(),
                false,
                late || lateNow,
                report.fiatAmount() == null ? fiatAmount : report.fiatAmount(),
                now);
    }

    private LinkTransaction with(
            TransactionStatus newStatus,
            int newConfirmations,
            Integer newRequired,
            boolean counted,
            boolean isLate,
            BigDecimal fiat,
            Instant now) {
        return new LinkTransaction(
                id,
                paymentLinkId,
                network,
                txHash,
                logIndex,
                tokenContract,
                asset,
                payerAddress,
                cryptoAmount,
                fiat,
                refundedAmount,
                newStatus,
                newConfirmations,
                newRequired,
                counted,
                isLate,
                unexpectedAsset,
                createdAt,
                now);
    }
}
