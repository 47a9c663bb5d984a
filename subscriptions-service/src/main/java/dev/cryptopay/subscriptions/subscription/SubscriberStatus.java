package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.events.EventType;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Where a subscriber stands; entering a state may emit a subscription event. */
public enum SubscriberStatus {
    /** Created, waiting for the customer to enrol on-chain. */
    INVITATION_SENT(null),
    /** Being billed. */
    ACTIVE(EventType.SUBSCRIPTION_ACTIVATED),
    INACTIVE(EventType.SUBSCRIPTION_PAUSED),
    /** Billing suspended (e.g. after missed payments). */
    SUSPENDED(EventType.SUBSCRIPTION_PAUSED),
    CANCELLED(EventType.SUBSCRIPTION_CANCELLED);

    public static final List<String> WIRE_NAMES =
            Arrays.stream(values()).map(SubscriberStatus::wireName).toList();

    private final EventType entered;

    SubscriberStatus(EventType entered) {
        this.entered = entered;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The event a subscriber moving into this state emits, if any. */
    public Optional<EventType> eventOnEntry() {
        return Optional.ofNullable(entered);
    }

    public static SubscriberStatus fromWireName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
