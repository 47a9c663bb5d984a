package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Transition;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * One subscriber's enrolment: the wallet that subscribed on chain, the transaction it reported (a hint until the chain
 * confirms it), what it owes and how many periods it paid. {@code approvals} is the JSON array recorded at
 * enrolment. Billing moves come only from the contract's logs: {@link #subscribed}, {@link #charged} and
 * {@link #missed}. {@code periodDueAt} is the start of the oldest period neither paid nor missed (the contract's next
 * due time); {@code missedPeriods} counts misses in a row; {@code chainSubscriptionId} is the contract's id (bytes32).
 */
public record SubscriptionLink(
        UUID id,
        UUID merchantId,
        Mode mode,
        UUID planId,
        UUID subscriberId,
        String walletAddress,
        String subscribeHash,
        Long onchainId,
        ChainStatus chainStatus,
        String chainSubscriptionId,
        String approvals,
        BigInteger owed,
        int paidPeriods,
        boolean locked,
        Instant subscribedAt,
        Instant trialEndsAt,
        Instant expiresAt,
        boolean active,
        Instant periodDueAt,
        int missedPeriods,
        Instant createdAt,
        Instant updatedAt) {

    /** The most a link can owe: debt is a uint256 like every amount (and its column holds 78 digits). */
    public static final BigInteger MAX_OWED = BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE);

    /**
     * A customer enrolled: the link waits for the chain ({@code pending}, not active) and announces nothing yet.
     *
     * @param subscribeHash the transaction the wallet says subscribed it
     */
    public static SubscriptionLink pending(
            Subscriber subscriber,
            String walletAddress,
            String subscribeHash,
            Long onchainId,
            String approvals,
            Instant expiresAt,
            Instant now) {
        return new SubscriptionLink(
                UUID.randomUUID(),
                subscriber.merchantId(),
                subscriber.mode(),
                subscriber.planId(),
                subscriber.id(),
                walletAddress,
                subscribeHash,
                onchainId,
                ChainStatus.PENDING,
                null,
                approvals,
                BigInteger.ZERO,
                0,
                false,
                null,
                null,
                expiresAt,
                false,
                null,
                0,
                now,
                now);
    }

    /** The customer enrolled again before the chain confirmed an earlier try: the new wallet and transaction count. */
    public SubscriptionLink retried(
            String newWallet,
            String newHash,
            Long newOnchainId,
            String newApprovals,
            Instant newExpiresAt,
            Instant now) {
        return new SubscriptionLink(
                id,
                merchantId,
                mode,
                planId,
                subscriberId,
                newWallet,
                newHash,
                newOnchainId,
                ChainStatus.PENDING,
                null,
                newApprovals,
                owed,
                paidPeriods,
                locked,
                subscribedAt,
                trialEndsAt,
                newExpiresAt,
                false,
                periodDueAt,
                missedPeriods,
                createdAt,
                now);
    }

    /** No matching {@code Subscribed} log came in time; a later one still activates the link. */
    public SubscriptionLink failed(Instant now) {
        return onChain(ChainStatus.FAILED, active, now);
    }

    /**
     * The chain confirmed the subscription: times come from its block and log, never from the enrolment body; the link
     * is billed (unless {@code billed} is false: its subscriber was cancelled meanwhile) and announced as
     * {@code subscription.created}.
     *
     * @param trialEndsAt the end of the plan's trial (the first due time), null without a trial
     * @param firstDue when the first period starts; null when it lies past what dates can hold
     * @param endsAt the subscription's end on chain, null for none
     */
    public Transition<SubscriptionLink> subscribed(
            String subscriptionId,
            Instant subscribedAt,
            Instant trialEndsAt,
            Instant firstDue,
            Instant endsAt,
            boolean billed,
            Instant now) {
        SubscriptionLink confirmed = new SubscriptionLink(
                id,
                merchantId,
                mode,
                planId,
                subscriberId,
                walletAddress,
                subscribeHash,
                onchainId,
                ChainStatus.SUBSCRIBED,
                subscriptionId,
                approvals,
                owed,
                paidPeriods,
                locked,
                subscribedAt,
                trialEndsAt,
                endsAt,
                billed,
                firstDue,
                0,
                createdAt,
                now);
        return billed ? Transition.to(confirmed, EventType.SUBSCRIPTION_CREATED) : Transition.to(confirmed);
    }

    /**
     * The contract collected a period: the chain's count of paid periods, the next due time, no misses in a row
     * ({@code subscription.payment.success}).
     */
    public Transition<SubscriptionLink> charged(long chainPaidPeriods, Instant nextDueAt, Instant now) {
        int paid = (int) Math.min(Integer.MAX_VALUE, Math.max(paidPeriods, chainPaidPeriods));
        return Transition.to(
                copy(owed, paid, locked, trialEndsAt, expiresAt, active, nextDueAt, 0, now),
                EventType.SUBSCRIPTION_PAYMENT_SUCCESS);
    }

    /**
     * The contract counted {@code charge}'s periods as missed (their grace passed unpaid): they become debt (at most
     * {@link #MAX_OWED}), the next period is due at {@code nextDueAt}, and one {@code subscription.payment.failed}
     * announces them all. The contract cancels after too many misses in a row; its own log stops the link.
     */
    public Transition<SubscriptionLink> missed(BigInteger charge, long missedInRow, Instant nextDueAt, Instant now) {
        return Transition.to(
                copy(
                        owed.add(charge).min(MAX_OWED),
                        paidPeriods,
                        locked,
                        trialEndsAt,
                        expiresAt,
                        active,
                        nextDueAt,
                        (int) Math.min(Integer.MAX_VALUE, missedInRow),
                        now),
                EventType.SUBSCRIPTION_PAYMENT_FAILED);
    }

    /**
     * A reorganisation deeper than the confirmations took away the confirmed collection of the period starting at
     * {@code periodStart}: one paid period fewer, and that period is due again (unless an earlier one already is);
     * announced as {@code subscription.payment.failed} (reason {@code reorganised}).
     */
    public Transition<SubscriptionLink> reorganised(Instant periodStart, Instant now) {
        Instant due = periodDueAt == null || periodStart.isBefore(periodDueAt) ? periodStart : periodDueAt;
        return Transition.to(
                copy(
                        owed,
                        Math.max(0, paidPeriods - 1),
                        locked,
                        trialEndsAt,
                        expiresAt,
                        active,
                        due,
                        missedPeriods,
                        now),
                EventType.SUBSCRIPTION_PAYMENT_FAILED);
    }

    /**
     * A change of the link's settings by its merchant or customer (who may change what is checked before). Moving
     * the trial's end before anything was billed moves the first period with it; a link restarted is billed again
     * from now (the time it stood still is not a miss) unless it has already expired, and only a link the chain
     * holds can restart. The link's own moves emit no events: stopping or restarting it moves its subscriber, whose
     * move announces it.
     */
    public Transition<SubscriptionLink> update(LinkUpdate update, Instant now) {
        Instant newTrialEndsAt = update.trialEndsAt().applyTo(trialEndsAt);
        Instant newExpiresAt = update.expiresAt().applyTo(expiresAt);
        boolean newActive = update.active().applyTo(active);
        SubscriptionLink changed = copy(
                update.owed().applyTo(owed),
                paidPeriods,
                update.locked().applyTo(locked),
                newTrialEndsAt,
                newExpiresAt,
                newActive,
                update.trialEndsAt().hasValue() && paidPeriods == 0 && missedPeriods == 0
                        ? newTrialEndsAt
                        : periodDueAt,
                missedPeriods,
                now);
        if (!active && newActive) {
            if (chainStatus == ChainStatus.ENDED) {
                throw ApiException.conflict(
                        "link_ended",
                        "The contract ended this link's subscription, so nothing can collect it again; the customer"
                                + " subscribes anew to come back");
            }
            if (chainStatus != ChainStatus.SUBSCRIBED) {
                throw ApiException.conflict(
                        "link_not_subscribed",
                        "The chain has not confirmed this link's subscription yet (chain_status "
                                + chainStatus.wireName() + "); it becomes active by itself once it does");
            }
            if (newExpiresAt != null && !newExpiresAt.isAfter(now)) {
                throw ApiException.conflict(
                        "link_expired", "The link expired at " + newExpiresAt + "; move expires_at to restart it");
            }
            Instant due = changed.periodDueAt != null && changed.periodDueAt.isAfter(now) ? changed.periodDueAt : now;
            changed = changed.copy(
                    changed.owed, paidPeriods, changed.locked, newTrialEndsAt, newExpiresAt, true, due, 0, now);
        }
        return changed.sameSettingsAs(this) ? Transition.unchanged(this) : Transition.to(changed);
    }

    /** Its end is near: announced once ({@code subscription.expiring}); the link itself stays as it is. */
    public Transition<SubscriptionLink> expiring() {
        return new Transition<>(this, List.of(EventType.SUBSCRIPTION_EXPIRING), false);
    }

    /** No longer billed (its subscriber was cancelled, or the contract ended the subscription). */
    public Transition<SubscriptionLink> stop(Instant now) {
        if (!active) {
            return Transition.unchanged(this);
        }
        return Transition.to(
                copy(owed, paidPeriods, locked, trialEndsAt, expiresAt, false, periodDueAt, missedPeriods, now));
    }

    /**
     * The contract ended the subscription (its {@code Cancelled} log): no longer billed, and never again, since nothing
     * can collect it and the link cannot restart.
     */
    public Transition<SubscriptionLink> ended(Instant now) {
        if (chainStatus == ChainStatus.ENDED) {
            return Transition.unchanged(this);
        }
        return Transition.to(onChain(ChainStatus.ENDED, false, now));
    }

    /** The same link with another place on chain (and billed or not). */
    private SubscriptionLink onChain(ChainStatus newChainStatus, boolean newActive, Instant now) {
        return new SubscriptionLink(
                id,
                merchantId,
                mode,
                planId,
                subscriberId,
                walletAddress,
                subscribeHash,
                onchainId,
                newChainStatus,
                chainSubscriptionId,
                approvals,
                owed,
                paidPeriods,
                locked,
                subscribedAt,
                trialEndsAt,
                expiresAt,
                newActive,
                periodDueAt,
                missedPeriods,
                createdAt,
                now);
    }

    private boolean sameSettingsAs(SubscriptionLink other) {
        return owed.equals(other.owed)
                && locked == other.locked
                && Objects.equals(trialEndsAt, other.trialEndsAt)
                && Objects.equals(expiresAt, other.expiresAt)
                && active == other.active
                && Objects.equals(periodDueAt, other.periodDueAt)
                && missedPeriods == other.missedPeriods;
    }

    private SubscriptionLink copy(
            BigInteger newOwed,
            int newPaidPeriods,
            boolean newLocked,
            Instant newTrialEndsAt,
            Instant newExpiresAt,
            boolean newActive,
            Instant newPeriodDueAt,
            int newMissedPeriods,
            Instant now) {
        return new SubscriptionLink(
                id,
                merchantId,
                mode,
                planId,
                subscriberId,
                walletAddress,
                subscribeHash,
                onchainId,
                chainStatus,
                chainSubscriptionId,
                approvals,
                newOwed,
                newPaidPeriods,
                newLocked,
                subscribedAt,
                newTrialEndsAt,
                newExpiresAt,
                newActive,
                newPeriodDueAt,
                newMissedPeriods,
                createdAt,
                now);
    }
}
