package dev.cryptopay.subscriptions.plan;

import java.util.UUID;

/** A plan as links and subscribers show it: what it bills, how often, and where. */
public record PlanSummary(
        UUID id,
        String name,
        String status,
        String amount,
        String formattedAmount,
        String currencySymbol,
        long interval,
        long trialPeriod,
        String network,
        long chainId) {

    public static PlanSummary of(PlanView view) {
        Plan plan = view.plan();
        return new PlanSummary(
                plan.id(),
                plan.name(),
                plan.status().wireName(),
                plan.billedAmount().toString(),
                view.token().format(plan.billedAmount()),
                view.token().currencyCode(),
                plan.terms().interval(),
                plan.terms().trialPeriod(),
                view.network().name(),
                view.network().chainId());
    }
}
