package dev.cryptopay.subscriptions.link;

import dev.cryptopay.auth.Mode;
import java.math.BigInteger;
import java.time.Instant;
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

    /**
     * The due period was paid with {@code paid} base units (at least one period's {@code billed}): the next period
     * becomes due at {@code nextDueAt}, the misses in a row reset, and any surplus pays off debt.
     */
    public SubscriptionLink paid(BigInteger billed, BigInteger paid, Instant nextDueAt, Instant now) {
        BigInteger surplus = paid.subtract(billed);
        return copy(
                owed.subtract(surplus).max(BigInteger.ZERO),
                paidPeriods + 1,
                locked,
                trialEndsAt,
                expiresAt,
                active,
                nextDueAt,
                0,
                now);
    }

    /**
     * The due period passed its grace unpaid: its charge becomes debt (at most {@link #MAX_OWED}) and the next
     * period is due.
     */
    public SubscriptionLink missed(BigInteger billed, long intervalSeconds, Instant now) {
        return copy(
                owed.add(billed).min(MAX_OWED),
                paidPeriods,
                locked,
                trialEndsAt,
                expiresAt,
                active,
                periodDueAt.plusSeconds(intervalSeconds),
                missedPeriods + 1,
                now);
    }

    /** The link with the given settings; null arguments leave a setting as it is. */
    public SubscriptionLink changed(
            Instant newTrialEndsAt,
            Instant newExpiresAt,
            Boolean newActive,
            Boolean newLocked,
            BigInteger newOwed,
            Instant now) {
        return copy(
                newOwed == null ? owed : newOwed,
                paidPeriods,
                newLocked == null ? locked : newLocked,
                newTrialEndsAt == null ? trialEndsAt : newTrialEndsAt,
                newExpiresAt == null ? expiresAt : newExpiresAt,
                newActive == null ? active : newActive,
                periodDueAt,
                missedPeriods,
                now);
    }

    /** The first period starts at {@code start} (the trial's end moved before anything was billed). */
    public SubscriptionLink firstPeriodAt(Instant start) {
        return copy(owed, paidPeriods, locked, trialEndsAt, expiresAt, active, start, missedPeriods, updatedAt);
    }

    /** Billed again from {@code now}: the time it stood still is not a miss, and the misses in a row start over. */
    public SubscriptionLink restarted(Instant now) {
        Instant due = periodDueAt != null && periodDueAt.isAfter(now) ? periodDueAt : now;
        return copy(owed, paidPeriods, locked, trialEndsAt, expiresAt, true, due, 0, now);
    }

    /** No longer billed. */
    public SubscriptionLink deactivated(Instant now) {
        return copy(owed, paidPeriods, locked, trialEndsAt, expiresAt, false, periodDueAt, missedPeriods, now);
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
