package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.report.TransactionReport;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.UUID;

/**
 * A transfer to a watched address, as the watcher believes it now and as it last reported it.
 *
 * @param tokenContract  the token transferred (lower-case), null for the native coin; may differ from the link's
 * @param decimals       that token's decimals (18 for the native coin)
 * @param status         {@code pending}, {@code confirmed} or {@code failed}
 * @param orphaned       its block was replaced by a reorganisation and the rescan has not found it again yet
 * @param reportedStatus null until payment-links-service acknowledged a report
 */
public record DetectedTransfer(
        UUID id,
        long chainId,
        String txHash,
        int logIndex,
        long blockNumber,
        String blockHash,
        UUID paymentLinkId,
        String network,
        String tokenContract,
        String fromAddress,
        BigInteger amountBaseUnits,
        int decimals,
        String status,
        int confirmations,
        boolean orphaned,
        String reportedStatus,
        Integer reportedConfirmations) {

    /** The amount in whole token units (base units / 10^decimals), exact. */
    public BigDecimal amount() {
        return new BigDecimal(amountBaseUnits).movePointLeft(decimals).stripTrailingZeros();
    }

    /** The same transfer as it was when first detected (for a report of the detection). */
    public DetectedTransfer asPending() {
        return new DetectedTransfer(
                id,
                chainId,
                txHash,
                logIndex,
                blockNumber,
                blockHash,
                paymentLinkId,
                network,
                tokenContract,
                fromAddress,
                amountBaseUnits,
                decimals,
                "pending",
                confirmations,
                orphaned,
                reportedStatus,
                reportedConfirmations);
    }

    /** What payment-links-service is told of the transfer as it now stands. */
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
                requiredConfirmations);
    }

    public boolean reportDue() {
        return !status.equals(reportedStatus)
                || reportedConfirmations == null
                || reportedConfirmations != confirmations;
    }
}
