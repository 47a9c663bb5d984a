package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.report.OutgoingTransferReport;
import dev.cryptopay.chainwatcher.report.TransactionReport;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.UUID;

/**
 * A transfer to or from a watched address, as the watcher believes it now and as it last reported it.
 *
 * @param direction      {@link #IN} (to the link's deposit address) or {@link #OUT} (from it: a refund, a sweep)
 * @param tokenContract  the token transferred (lower-case), null for the native coin; may differ from the link's
 * @param toAddress      the recipient (lower-case); null for incoming transfers stored before it was recorded
 * @param decimals       that token's decimals (18 for the native coin)
 * @param status         {@code pending}, {@code confirmed} or {@code failed}
 * @param orphaned       its block was replaced by a reorganisation and the rescan has not found it again yet
 * @param usdValue       an incoming transfer's USD value when it was confirmed; null when unknown or not valued yet
 * @param usdSource      how that value is known ({@code price_feed}, {@code stablecoin}, {@code unknown}); null: not
 *                       valued yet
 * @param reportedStatus null until payment-links-service acknowledged a report
 */
public record DetectedTransfer(
        UUID id,
        long chainId,
        String txHash,
        int logIndex,
        String direction,
        long blockNumber,
        String blockHash,
        UUID paymentLinkId,
        String network,
        String tokenContract,
        String fromAddress,
        String toAddress,
        BigInteger amountBaseUnits,
        int decimals,
        String status,
        int confirmations,
        boolean orphaned,
        BigDecimal usdValue,
        String usdSource,
        String reportedStatus,
        Integer reportedConfirmations) {

    /** A transfer to the link's deposit address. */
    public static final String IN = "in";

    /** A transfer from the link's deposit address. */
    public static final String OUT = "out";

    /** The amount in whole token units (base units / 10^decimals), exact. */
    public BigDecimal amount() {
        return new BigDecimal(amountBaseUnits).movePointLeft(decimals).stripTrailingZeros();
    }

    public boolean outgoing() {
        return OUT.equals(direction);
    }

    /** The same transfer as it was when first detected (for a report of the detection). */
    public DetectedTransfer asPending() {
        return new DetectedTransfer(
                id,
                chainId,
                txHash,
                logIndex,
                direction,
                blockNumber,
                blockHash,
                paymentLinkId,
                network,
                tokenContract,
                fromAddress,
                toAddress,
                amountBaseUnits,
                decimals,
                "pending",
                confirmations,
                orphaned,
                usdValue,
                usdSource,
                reportedStatus,
                reportedConfirmations);
    }

    /**
     * What payment-links-service is told of an incoming transfer as it now stands; a confirmed one carries its USD
     * value when known.
     */
    public TransactionReport report(int requiredConfirmations) {
        return new TransactionReport(
                network,
                txHash,
                logIndex,
                tokenContract,
                fromAddress,
                amount(),
                status,
                confirmations,
                requiredConfirmations,
                status.equals("confirmed") ? usdValue : null);
    }

    /** What payment-links-service is told of an outgoing transfer as it now stands. */
    public OutgoingTransferReport outgoingReport(int requiredConfirmations) {
        return new OutgoingTransferReport(
                network,
                txHash,
                logIndex,
                tokenContract,
                fromAddress,
                toAddress,
                amount(),
                status,
                confirmations,
                requiredConfirmations);
    }

    public boolean reportDue() {
        return !status.equals(reportedStatus)
                || reportedConfirmations == null
                || reportedConfirmations != confirmations;
    }
}
