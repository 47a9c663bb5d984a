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
