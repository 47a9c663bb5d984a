package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Transition;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One subscriber's enrolment: the wallet that approved billing, its on-chain subscribe transaction, what it owes and
 * how many periods it paid. {@code approvals} is the JSON array recorded at enrolment. {@code periodDueAt} is the
 * start of the oldest period neither paid nor missed; {@code missedPeriods} counts misses since the last payment.
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

    /** A customer enrolled: the new link, announced as {@code subscription.created}. */
    public static Transition<SubscriptionLink> enrol(SubscriptionLink link) {
        return Transition.to(link, EventType.SUBSCRIPTION_CREATED);
    }

    /**
     * The due period was paid with {@code paid} base units (at least one period's {@code billed}): the next period
     * becomes due at {@code nextDueAt}, the misses in a row reset, and any surplus pays off debt.
     */
    public Transition<SubscriptionLink> paid(BigInteger billed, BigInteger paid, Instant nextDueAt, Instant now) {
        BigInteger surplus = paid.subtract(billed);
        return Transition.to(
                copy(
                        owed.subtract(surplus).max(BigInteger.ZERO),
                        paidPeriods + 1,
                        locked,
                        trialEndsAt,
                        expiresAt,
                        active,
                        nextDueAt,
                        0,
                        now),
                EventType.SUBSCRIPTION_PAYMENT_SUCCESS);
    }

    /**
     * The due period passed its grace unpaid: its charge becomes debt (at most {@link #MAX_OWED}) and the next
     * period is due; the {@code autoCancelAfter}-th miss in a row (0: never) stops the link.
     */
    public Transition<SubscriptionLink> missed(
            BigInteger billed, long intervalSeconds, long autoCancelAfter, Instant now) {
        int misses = missedPeriods + 1;
        boolean stops = autoCancelAfter > 0 && misses >= autoCancelAfter;
        return Transition.to(
                copy(
                        owed.add(billed).min(MAX_OWED),
                        paidPeriods,
                        locked,
                        trialEndsAt,
                        expiresAt,
                        active && !stops,
                        periodDueAt.plusSeconds(intervalSeconds),
                        misses,
                        now),
                EventType.SUBSCRIPTION_PAYMENT_FAILED);
    }

    /**
     * A change of the link's settings by its merchant or customer (who may change what is checked before). Moving
     * the trial's end before anything was billed moves the first period with it; a link restarted is billed again
     * from now (the time it stood still is not a miss) unless it has already expired. The link's own moves emit no
     * events: stopping or restarting it moves its subscriber, whose move announces it.
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
        return new Transition<>(this, java.util.List.of(EventType.SUBSCRIPTION_EXPIRING), false);
    }

    /** No longer billed (its subscriber was cancelled). */
    public Transition<SubscriptionLink> stop(Instant now) {
        if (!active) {
            return Transition.unchanged(this);
        }
        return Transition.to(
                copy(owed, paidPeriods, locked, trialEndsAt, expiresAt, false, periodDueAt, missedPeriods, now));
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
