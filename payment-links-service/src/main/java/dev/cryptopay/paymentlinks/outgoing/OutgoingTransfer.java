package dev.cryptopay.paymentlinks.outgoing;

import dev.cryptopay.paymentlinks.transaction.TransactionStatus;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * One transfer out of a link's deposit address, identified by (network, tx_hash, log_index).
 *
 * @param tokenContract the token that left, lower case; null for the native coin
 * @param asset         named for the merchant: the currency code when the catalogue knows it, else the contract
 * @param status        pending, confirmed or failed (reorganised away)
 * @param refundId      the refund it pays; null for a withdrawal
 */
record OutgoingTransfer(
        UUID id,
        UUID paymentLinkId,
        String network,
        String txHash,
        int logIndex,
        String tokenContract,
        String asset,
        String fromAddress,
        String toAddress,
        BigDecimal cryptoAmount,
        TransactionStatus status,
        int confirmations,
        Integer requiredConfirmations,
        UUID refundId,
        Instant createdAt,
        Instant updatedAt) {

    /** Whether a report describes the same money: token, recipient and amount (a report may only move its status). */
    boolean sameMoney(OutgoingTransferReport report) {
        boolean sameToken =
                tokenContract == null ? report.tokenContract() == null : tokenContract.equals(report.tokenContract());
        return sameToken
                && toAddress.equalsIgnoreCase(report.toAddress())
                && cryptoAmount.compareTo(report.cryptoAmount()) == 0;
    }

    /** The same transfer with a newer report's status and counts (a null required count keeps ours). */
    OutgoingTransfer reported(OutgoingTransferReport report, Instant now) {
        return new OutgoingTransfer(
                id,
                paymentLinkId,
                network,
                txHash,
                logIndex,
                tokenContract,
                asset,
                fromAddress,
                toAddress,
                cryptoAmount,
                report.status(),
                report.confirmations(),
                report.requiredConfirmations() == null ? requiredConfirmations : report.requiredConfirmations(),
                refundId,
                createdAt,
                now);
    }

    /** The same transfer paying {@code refund} (null: a withdrawal). */
    OutgoingTransfer paying(UUID refund) {
        return new OutgoingTransfer(
                id,
                paymentLinkId,
                network,
                txHash,
                logIndex,
                tokenContract,
                asset,
                fromAddress,
                toAddress,
                cryptoAmount,
                status,
                confirmations,
                requiredConfirmations,
                refund,
                createdAt,
                updatedAt);
    }
}
