package dev.cryptopay.paymentlinks.paymentlink;

import java.time.Instant;
import java.util.List;

/**
 * A link as read at one moment: lazy expiry and {@code payment_status} are judged at {@code asOf}. The figures and
 * lists are there on single-link reads only (null otherwise).
 *
 * @param summary           the transaction figures
 * @param transactions      its most recent recorded transfers in, newest first
 * @param refunds           its most recent refunds, newest first
 * @param outgoingTransfers its most recent transfers out of the deposit address (refunds paid, withdrawals), newest
 *                          first
 */
public record PaymentLinkView(
        PaymentLink link,
        Summary summary,
        List<RecordedTransaction> transactions,
        List<LinkRefund> refunds,
        List<RecordedOutgoingTransfer> outgoingTransfers,
        Instant asOf) {

    /** A link without its transactions: what lists and writes answer. */
    public PaymentLinkView(PaymentLink link, Instant asOf) {
        this(link, null, null, null, null, asOf);
    }
}
