package dev.cryptopay.paymentlinks.paymentlink;

import java.util.Locale;

/** Why a refund failed; the {@code reason} of its {@code transfer.failed} event. */
public enum RefundFailure {
    /** Nothing paid it before its {@code expires_at}: the merchant's wallet never sent it (or sent another amount). */
    ABANDONED,
    /** Its transfer was seen on chain, then taken away by a reorganisation. */
    REORGANISED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static RefundFailure fromWireName(String name) {
        for (RefundFailure failure : values()) {
            if (failure.wireName().equals(name)) {
                return failure;
            }
        }
        return null;
    }
}
