package dev.cryptopay.subscriptions.onchain;

import java.util.Locale;

/** What a reported log did. */
public enum LogOutcome {
    /** It moved a link or a plan. */
    APPLIED,
    /** No link knew its transaction or subscription yet; the enrolment that names it applies it. */
    UNMATCHED,
    /** The period it collected was already paid (collected again after a reorganisation). */
    DUPLICATE,
    /** Another contract than the chain's configured one, or an event the service does not act on. */
    IGNORED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static LogOutcome fromWireName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
