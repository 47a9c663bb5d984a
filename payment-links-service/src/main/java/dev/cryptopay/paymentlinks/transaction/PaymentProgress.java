package dev.cryptopay.paymentlinks.transaction;

import java.math.BigDecimal;

/**
 * A link's payments as a checkout shows them.
 *
 * @param confirmedTotal        the crypto amount of every confirmed transaction (refunded ones excluded)
 * @param partialTotal          the confirmed amount no completed use has consumed yet: underpayments awaiting a top-up
 * @param pendingTransactions   how many transactions are seen on chain but not confirmed yet
 * @param confirmations         the confirmations of the most advanced pending transaction; null when none is pending
 * @param requiredConfirmations how many that transaction needs, as its watcher reported; null when unknown
 */
public record PaymentProgress(
        BigDecimal confirmedTotal,
        BigDecimal partialTotal,
        long pendingTransactions,
        Integer confirmations,
        Integer requiredConfirmations) {

    /** A link nothing has been recorded for. */
    public static final PaymentProgress NONE = new PaymentProgress(BigDecimal.ZERO, BigDecimal.ZERO, 0, null, null);
}
