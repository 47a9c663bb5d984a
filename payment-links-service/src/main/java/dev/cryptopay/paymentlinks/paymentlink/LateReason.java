package dev.cryptopay.paymentlinks.paymentlink;

import java.util.Locale;

/** Why a confirmed payment did not count for its link; the {@code reason} of its {@code wallet.deposit} event. */
public enum LateReason {
    /** The link had expired, was cancelled or inactive when the payment arrived. */
    LATE_PAYMENT,
    /** Every use of the link was taken already ({@code current_uses} reached {@code max_uses}). */
    BEYOND_MAX_USES;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
