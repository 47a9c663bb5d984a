package dev.cryptopay.paymentlinks.paymentlink;

import java.math.BigDecimal;

/**
 * Figures of a link's recorded transactions. Amounts count confirmed transactions only (refunded ones are no longer
 * received); payers are distinct paying addresses of confirmed transactions.
 */
public record Summary(
        long totalPayers,
        long totalTransactions,
        BigDecimal totalAmountReceived,
        BigDecimal totalAmountReceivedCrypto,
        long pendingTransactions,
        long completedTransactions,
        long failedTransactions) {}
