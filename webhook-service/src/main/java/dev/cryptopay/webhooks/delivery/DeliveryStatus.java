package dev.cryptopay.webhooks.delivery;

import java.util.Arrays;
import java.util.List;

/**
 * Where a delivery stands. The wire names are stored in {@code webhook_delivery.status} and shown to merchants, so
 * they are fixed here rather than derived from {@link #name()}.
 */
public enum DeliveryStatus {
    /** Waiting for its next attempt (or being attempted). */
    PENDING("pending"),
    /** A receiver answered 2xx. */
    SUCCEEDED("succeeded"),
    /** The schedule ran out or the endpoint went away; a retry or recover starts it again. */
    FAILED("failed");

    private final String wireName;

    DeliveryStatus(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Every wire name, in declaration order: pending, succeeded, failed. */
    public static List<String> wireNames() {
        return Arrays.stream(values()).map(DeliveryStatus::wireName).toList();
    }

    /** @throws IllegalArgumentException if {@code wireName} is not one of the three spellings */
    public static DeliveryStatus fromWireName(String wireName) {
        for (DeliveryStatus status : values()) {
            if (status.wireName.equals(wireName)) {
                return status;
            }
        }
        throw new IllegalArgumentException("Unknown delivery status '" + wireName + "'");
    }
}
