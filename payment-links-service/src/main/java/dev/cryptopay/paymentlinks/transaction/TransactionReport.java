package dev.cryptopay.paymentlinks.transaction;

import java.math.BigDecimal;

/**
 * What a watcher reports about one on-chain transaction.
 *
 * @param requiredConfirmations how many confirmations the watcher waits for; null when not reported
 */
public record TransactionReport(
        String network,
        String txHash,
        String payerAddress,
        BigDecimal cryptoAmount,
        BigDecimal fiatAmount,
        TransactionStatus status,
        int confirmations,
        Integer requiredConfirmations) {}
