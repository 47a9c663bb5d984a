package dev.cryptopay.subscriptions.page;

import dev.cryptopay.subscriptions.plan.Plan;
import dev.cryptopay.subscriptions.subscription.ChainStatus;
import dev.cryptopay.subscriptions.subscription.Subscriber;
import dev.cryptopay.subscriptions.subscription.SubscriberStatus;
import dev.cryptopay.subscriptions.subscription.SubscriptionLink;
import java.time.Instant;
import java.util.Locale;

/** What the subscribe page shows, decided from the subscriber, its plan and its link. */
public enum SubscribeState {
    /** Not enrolled, the invitation open: the page shows the terms and how to subscribe. */
    INVITATION("Invitation to subscribe", false),
    /** The wallet's subscribe transaction was reported; the chain has not confirmed it yet. */
    PENDING("Confirming your subscription", false),
    /** No confirmed subscription came for the reported transaction in time; the customer may subscribe again. */
    ENROLMENT_FAILED("Subscription not confirmed", false),
    /** Subscribed on chain and being billed. */
    ACTIVE("Subscription active", false),
    /** Subscribed on chain, but the merchant paused or suspended it. */
    PAUSED("Subscription paused", false),
    /** Cancelled (by the customer, the merchant or the contract), or the invitation was withdrawn. */
    CANCELLED("Subscription cancelled", true),
    /** Not enrolled and past the invitation's subscribe deadline. */
    INVITATION_EXPIRED("Invitation expired", true),
    /** Not enrolled and the plan no longer accepts subscribers. */
    PLAN_DEPRECATED("Plan closed to new subscribers", true),
    /** Not enrolled and the merchant revoked the plan on chain. */
    PLAN_REVOKED("Plan revoked", true),
    /** Not enrolled and the invitation cannot be used: no subscription contract on the network, or the merchant moved it. */
    UNAVAILABLE("Subscription not available", true);

    private final String title;
    private final boolean terminal;

    SubscribeState(String title, boolean terminal) {
        this.title = title;
        this.terminal = terminal;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The heading the page shows and screen readers announce when the state changes. */
    public String title() {
        return title;
    }

    /** Whether nothing the customer does changes the state any more (live updates stop). */
    public boolean terminal() {
        return terminal;
    }

    /** Whether the page offers enrolment (the wallet button and the by-hand instructions). */
    public boolean enrols() {
        return this == INVITATION || this == ENROLMENT_FAILED;
    }

    /**
     * The rules, first match wins: a cancelled subscriber, or a link the contract ended → {@code cancelled}; a link the chain confirmed →
     * {@code active} when the subscriber is active and the link bills, else {@code paused}; a link waiting for the
     * chain → {@code pending}; a revoked plan → {@code plan_revoked}; a deprecated one → {@code plan_deprecated};
     * past the subscribe deadline → {@code invitation_expired}; no contract on the plan's network, or a subscriber
     * the merchant moved out of {@code invitation_sent} without a link → {@code unavailable}; a link the chain never
     * confirmed → {@code enrolment_failed}; otherwise {@code invitation}.
     *
     * @param link null before enrolment
     * @param openUntil the invitation's deadline; null when it has none
     * @param hasContract whether the plan's network has a subscription contract configured
     */
    public static SubscribeState decide(
            Subscriber subscriber,
            Plan plan,
            SubscriptionLink link,
            Instant openUntil,
            boolean hasContract,
            Instant now) {
        if (subscriber.status() == SubscriberStatus.CANCELLED
                || (link != null && link.chainStatus() == ChainStatus.ENDED)) {
            return CANCELLED;
        }
        if (link != null && link.chainStatus() == ChainStatus.SUBSCRIBED) {
            return subscriber.status() == SubscriberStatus.ACTIVE && link.active() ? ACTIVE : PAUSED;
        }
        if (link != null && link.chainStatus() == ChainStatus.PENDING) {
            return PENDING;
        }
        if (plan.revoked()) {
            return PLAN_REVOKED;
        }
        if (!plan.acceptsSubscribers()) {
            return PLAN_DEPRECATED;
        }
        if (openUntil != null && now.isAfter(openUntil)) {
            return INVITATION_EXPIRED;
        }
        if (!hasContract || subscriber.status() != SubscriberStatus.INVITATION_SENT) {
            return UNAVAILABLE;
        }
        return link != null ? ENROLMENT_FAILED : INVITATION;
    }
}
