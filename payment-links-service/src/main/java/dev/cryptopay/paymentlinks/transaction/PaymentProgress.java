package dev.cryptopay.paymentlinks.transaction;

import java.math.BigDecimal;
import java.util.List;

/**
 * A link's payments as a checkout shows them.
 *
 * @param confirmedTotal        the crypto amount of every confirmed transaction of the link's asset, less what refunds
 *                              returned
 * @param partialTotal          the confirmed amount no completed use has consumed yet: underpayments awaiting a top-up
 * @param pendingTransactions   how many transactions are seen on chain but not confirmed yet
 * @param confirmations         the confirmations of the most advanced pending transaction; null when none is pending
 * @param requiredConfirmations how many that transaction needs, as its watcher reported; null when unknown
 * @param unexpectedAssets      what arrived in other assets than the link's (pending or confirmed, not returned), by
 *                              asset in the order they first came; none of it counts for the link
 */
public record PaymentProgress(
        BigDecimal confirmedTotal,
        BigDecimal partialTotal,
        long pendingTransactions,
        Integer confirmations,
        Integer requiredConfirmations,
        List<Arrived> unexpectedAssets) {

    /** A link nothing has been recorded for. */
    public static final PaymentProgress NONE =
            new PaymentProgress(BigDecimal.ZERO, BigDecimal.ZERO, 0, null, null, List.of());

    public PaymentProgress {
        unexpectedAssets = List.copyOf(unexpectedAssets);
    }

    /**
     * An amount of one asset that reached the link's address.
     *
     * @param asset  its currency code, else its contract ({@code native} for an unlisted native coin)
     * @param amount in whole units of it
     */
    public record Arrived(String asset, BigDecimal amount) {}
}
