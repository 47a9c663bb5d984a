package dev.cryptopay.paymentlinks.paymentlink;

import java.time.Instant;

/**
 * A link as read at one moment: lazy expiry and {@code payment_status} are judged at {@code asOf}.
 *
 * @param summary the transaction figures, on single-link reads only (null otherwise)
 */
public record PaymentLinkView(PaymentLink link, Summary summary, Instant asOf) {}
