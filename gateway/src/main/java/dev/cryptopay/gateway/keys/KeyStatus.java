package dev.cryptopay.gateway.keys;

import java.util.Locale;

/** Whether an API key may still be used. */
public enum KeyStatus {
    ACTIVE,
    REVOKED;

    /** Lowercase spelling stored in the database and shown in the admin API. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static KeyStatus fromWireName(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
