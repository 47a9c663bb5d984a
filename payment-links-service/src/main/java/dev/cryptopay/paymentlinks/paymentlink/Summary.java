package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.service.money.Amounts;
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
        long failedTransactions) {

    /** The same figures with amounts as the interface renders them (no trailing zeros of the NUMERIC column). */
    Summary rendered() {
        return new Summary(
                totalPayers,
                totalTransactions,
                Amounts.jsonNumber(totalAmountReceived),
                Amounts.jsonNumber(totalAmountReceivedCrypto),
                pendingTransactions,
                completedTransactions,
                failedTransactions);
    }
}
