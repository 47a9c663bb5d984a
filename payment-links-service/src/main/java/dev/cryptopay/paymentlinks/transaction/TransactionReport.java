package dev.cryptopay.paymentlinks.transaction;

import java.math.BigDecimal;

/** What a watcher reports about one on-chain transaction. */
public record TransactionReport(
        String network,
        String txHash,
        String payerAddress,
        BigDecimal cryptoAmount,
        BigDecimal fiatAmount,
        TransactionStatus status,
        int confirmations) {}
