package dev.cryptopay.paymentlinks.transaction;

import java.util.Locale;

/** Status of a recorded transaction. */
public enum TransactionStatus {
    PENDING,
    CONFIRMED,
    FAILED,
    REFUNDED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TransactionStatus fromWireName(String name) {
        for (TransactionStatus status : values()) {
            if (status.wireName().equals(name)) {
                return status;
            }
        }
        return null;
    }
}
