package dev.cryptopay.subscriptions.page;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.subscriptions.network.Network;
import dev.cryptopay.subscriptions.network.Token;
import dev.cryptopay.subscriptions.plan.Plan;
import dev.cryptopay.subscriptions.plan.PlanTerms;
import dev.cryptopay.subscriptions.plan.PlanView;
import dev.cryptopay.subscriptions.subscription.ChainStatus;
import dev.cryptopay.subscriptions.subscription.CustomerService.Enrolment;
import dev.cryptopay.subscriptions.subscription.Subscriber;
import dev.cryptopay.subscriptions.subscription.SubscriptionLink;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A subscriber as its subscribe page shows it at one moment: only what the customer may see (its own name, the plan's
 * public terms, its link and payments; never the merchant's account id, customer id or webhook metadata), and the
 * state.
 *
 * @param merchantName the merchant's display name as the gateway forwarded it; null when unknown (or not read)
 * @param link null before enrolment
 * @param contract the subscription contract of the plan's network; null when none is configured
 * @param openUntil the invitation's deadline; null when it has none
 * @param signatureVerified whether the merchant's signature of the terms recovers to the plan's merchant for this
 *     chain and contract; null when not checked (no contract, or a view made for a status)
 * @param kit what the wallet's enrolment kit is made of, exactly as prepare makes it; null unless the page offers
 *     enrolment
 * @param payments the paid periods, oldest first
 * @param subscribeExplorerUrl the subscribe transaction on the network's explorer; null where there is none
 */
public record SubscribeView(
        SubscribeState state,
        Subscriber subscriber,
        PlanView plan,
        String merchantName,
        SubscriptionLink link,
        String contract,
        Instant openUntil,
        Boolean signatureVerified,
        Enrolment kit,
        List<PaymentLine> payments,
        String subscribeExplorerUrl) {

    public UUID subscriberId() {
        return subscriber.id();
    }

    /**
     * Whether the customer can still end the subscription on chain here: the page's link no longer bills (the
     * subscription is cancelled here or paused) while the contract still holds it with the wallet's allowance.
     */
    boolean cancellableOnChain() {
        return link != null
                && link.chainStatus() == ChainStatus.SUBSCRIBED
                && link.chainSubscriptionId() != null
                && (state == SubscribeState.ACTIVE
                        || state == SubscribeState.PAUSED
                        || state == SubscribeState.CANCELLED);
    }

    /**
     * Whether the page can no longer change through the customer (live updates may stop): a terminal state, unless
     * the contract still holds the cancelled subscription, which the customer may end from the page.
     */
    boolean terminal() {
        return state.terminal() && !cancellableOnChain();
    }

    Plan planRecord() {
        return plan.plan();
    }

    PlanTerms terms() {
        return plan.plan().terms();
    }

    Network network() {
        return plan.network();
    }

    Token token() {
        return plan.token();
    }

    boolean test() {
        return plan.plan().mode() == Mode.TEST;
    }

    /** One period's payment in token units with its symbol: "10 USDC". */
    String price() {
        return amount(plan.plan().billedAmount());
    }

    /** Base units of the plan's token in token units with its symbol. */
    String amount(BigInteger baseUnits) {
        return token().format(baseUnits) + " " + token().currencyCode();
    }

    /** "10 USDC every 30 days". */
    String priceEvery() {
        return price() + " " + Words.every(terms().interval());
    }

    /** How long a due period stays collectable: the contract raises a plan's grace to at least an hour. */
    long effectiveGrace() {
        return terms().effectiveGrace();
    }

    /** The start of the next period to bill: the contract's next due time, once enrolled. */
    Instant nextBillingAt() {
        if (link == null) {
            return null;
        }
        if (link.periodDueAt() != null) {
            return link.periodDueAt();
        }
        return payments.isEmpty()
                ? link.trialEndsAt()
                : payments.get(payments.size() - 1).endsAt();
    }

    /** What the link owes, in token units with the symbol; "0 USDC" before enrolment. */
    String owed() {
        return amount(link == null ? BigInteger.ZERO : link.owed());
    }

    /** What the link owes, in token units without the symbol ("0" before enrolment), as the status says it. */
    String owedUnits() {
        return token().format(link == null ? BigInteger.ZERO : link.owed());
    }

    /** The sentence under the state's title. */
    String detail() {
        String network = network().name();
        return switch (state) {
            case INVITATION ->
                "You are invited to subscribe to " + plan.plan().name() + ": " + priceEvery() + " on " + network
                        + ". Read the terms, then subscribe from your wallet.";
            case PENDING ->
                "Your subscription was sent to " + network + ". It becomes active once the network confirms it;"
                        + " this page updates by itself.";
            case ENROLMENT_FAILED ->
                "Your subscription was not confirmed on " + network + ". If your wallet shows the transaction"
                        + " failed, nothing was charged: you can subscribe again below.";
            case ACTIVE -> {
                Instant next = nextBillingAt();
                yield next == null
                        ? "You are subscribed: " + priceEvery() + "."
                        : "You are subscribed. The next payment of " + price() + " is due on " + Words.dateTime(next)
                                + ".";
            }
            case PAUSED ->
                "The merchant paused this subscription: no payments are collected while it is paused. Contact the"
                        + " merchant for details.";
            case CANCELLED -> {
                if (link == null) {
                    yield "This invitation was withdrawn. Contact the merchant if you want to subscribe.";
                }
                yield cancellableOnChain()
                        ? "This subscription is cancelled: this service takes no further payments. The subscription"
                                + " and your wallet's allowance still stand on the contract; end it there below so"
                                + " that nobody can collect it."
                        : "This subscription is cancelled: no further payments will be taken from your wallet.";
            }
            case INVITATION_EXPIRED ->
                "This invitation expired on " + Words.dateTime(openUntil) + ". Ask the merchant for a new one.";
            case PLAN_DEPRECATED ->
                "This plan no longer accepts new subscribers. Contact the merchant for another offer.";
            case PLAN_REVOKED -> "The merchant revoked this plan: it can no longer be subscribed to.";
            case UNAVAILABLE ->
                contract == null
                        ? "Subscriptions on " + network + " are not available right now. Try again later."
                        : "This invitation cannot be used now. Contact the merchant.";
        };
    }
}
