package dev.cryptopay.paymentlinks.paymentlink;

import java.util.Locale;

/** Why a confirmed transfer did not count for its link; the {@code reason} of its {@code wallet.deposit} event. */
public enum DepositReason {
    /** The link had expired, was cancelled or inactive when the payment arrived. */
    LATE_PAYMENT,
    /** Every use of the link was taken already ({@code current_uses} reached {@code max_uses}). */
    BEYOND_MAX_USES,
    /** Another asset than the link's arrived (another token, or the native coin instead of the token, or the reverse). */
    UNEXPECTED_ASSET;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
