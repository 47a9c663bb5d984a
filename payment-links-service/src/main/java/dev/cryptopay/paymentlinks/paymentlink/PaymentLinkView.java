package dev.cryptopay.paymentlinks.paymentlink;

import java.time.Instant;
import java.util.List;

/**
 * A link as read at one moment: lazy expiry and {@code payment_status} are judged at {@code asOf}.
 *
 * @param summary      the transaction figures, on single-link reads only (null otherwise)
 * @param transactions its most recent recorded transactions, newest first, on single-link reads only (null otherwise)
 */
public record PaymentLinkView(PaymentLink link, Summary summary, List<RecordedTransaction> transactions, Instant asOf) {

    /** A link without its transactions: what lists and writes answer. */
    public PaymentLinkView(PaymentLink link, Instant asOf) {
        this(link, null, null, asOf);
    }
}
