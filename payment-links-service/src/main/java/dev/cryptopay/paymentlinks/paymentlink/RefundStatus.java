package dev.cryptopay.paymentlinks.paymentlink;

import java.util.Locale;

/** Where a refund stands (see {@link LinkRefund}). */
public enum RefundStatus {
    /** Asked for; the merchant's wallet has not been seen paying it. Open: an outgoing transfer may pay it. */
    INITIATED,
    /** Its transfer is on chain, waiting for confirmations. */
    PENDING,
    /** Its transfer is confirmed: the money is back with the customer. */
    COMPLETED,
    /** Abandoned (nothing paid it in time) or reorganised away; it claims nothing. */
    FAILED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static RefundStatus fromWireName(String name) {
        for (RefundStatus status : values()) {
            if (status.wireName().equals(name)) {
                return status;
            }
        }
        return null;
    }
}
