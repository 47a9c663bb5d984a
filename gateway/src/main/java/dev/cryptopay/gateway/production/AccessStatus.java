package dev.cryptopay.gateway.production;

import java.util.Locale;

/** Where a production access request stands. */
public enum AccessStatus {
    /** Waiting for the operator; a merchant has at most one. */
    PENDING,
    /** Granted: the merchant may create live keys. */
    APPROVED,
    /** Refused, with the operator's reason; the merchant may ask again. */
    REJECTED;

    /** Lowercase spelling stored in the database and shown in the APIs. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static AccessStatus fromWireName(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
