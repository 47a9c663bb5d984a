package dev.cryptopay.subscriptions.plan;

import java.math.BigInteger;

/**
 * The billing terms a merchant signs (the EIP-712 {@code SubscriptionPlan} message), in signing order. Addresses are
 * EIP-55; an amount-based plan has empty {@code currency} and {@code value}, a value-based plan the zero token
 * address and amount 0.
 */
public record PlanTerms(
        String merchant,
        String destination,
        String token,
        BigInteger amount,
        String currency,
        String value,
        long interval,
        long trialPeriod,
        long maxArrears,
        long autoCancelAfterMissed,
        long subscribeDeadline,
        long planNonce) {

    /**
     * The subscription contract's shortest interval and shortest grace (its {@code MIN_INTERVAL} and
     * {@code MIN_GRACE}): a plan billing more often is refused, a shorter {@code maxArrears} is raised to it.
     */
    public static final long MIN_INTERVAL_SECONDS = 3_600;

    public static final long MIN_GRACE_SECONDS = 3_600;

    /** How long a due period stays collectable on chain: {@code maxArrears}, at least an hour (the contract's rule). */
    public long effectiveGrace() {
        return Math.max(maxArrears, MIN_GRACE_SECONDS);
    }

    public boolean byAmount() {
        return value.isEmpty();
    }

    public PlanTerms withPlanNonce(long nonce) {
        return new PlanTerms(
                merchant,
                destination,
                token,
                amount,
                currency,
                value,
                interval,
                trialPeriod,
                maxArrears,
                autoCancelAfterMissed,
                subscribeDeadline,
                nonce);
    }
}
