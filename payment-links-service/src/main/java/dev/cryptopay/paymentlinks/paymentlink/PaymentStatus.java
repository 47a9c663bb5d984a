package dev.cryptopay.paymentlinks.paymentlink;

import java.util.Locale;

/** The {@code payment_status} of a link. */
public enum PaymentStatus {
    PENDING,
    PROCESSING,
    COMPLETED,
    EXPIRED,
    CANCELLED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status named on the wire, or null when the name is not one. */
    public static PaymentStatus fromWireName(String name) {
        for (PaymentStatus status : values()) {
            if (status.wireName().equals(name)) {
                return status;
            }
        }
        return null;
    }
}
