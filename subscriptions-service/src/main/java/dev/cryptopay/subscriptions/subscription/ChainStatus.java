package dev.cryptopay.subscriptions.subscription;

import java.util.Locale;

/**
 * Where a link stands on chain. A link is {@code pending} from the customer's enrolment until the chain watcher
 * reports a confirmed {@code Subscribed} log matching it; {@code failed} when none came in time (a later one still
 * counts); {@code subscribed} once the contract holds the subscription; {@code ended} once the contract ended it
 * (its {@code Cancelled} log), after which nothing can collect it and the link cannot restart.
 */
public enum ChainStatus {
    PENDING,
    SUBSCRIBED,
    FAILED,
    ENDED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ChainStatus fromWireName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
