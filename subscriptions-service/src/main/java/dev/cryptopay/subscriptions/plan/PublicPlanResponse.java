package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.subscriptions.plan.PlanResponse.NetworkResponse;
import java.time.Instant;
import java.util.UUID;

/**
 * A plan as customers and wallets see it: its signed terms (public on-chain anyway), what it bills and its name and
 * description, but not the merchant's account id, subscriber counts or subscribers.
 */
public record PublicPlanResponse(
        UUID id,
        String name,
        String description,
        String metadataUri,
        NetworkResponse network,
        long chainId,
        String merchantAddress,
        String destinationAddress,
        String token,
        String currency,
        String currencySymbol,
        String value,
        String amount,
        String formattedAmount,
        int decimals,
        long interval,
        long trialPeriod,
        long maxArrears,
        long effectiveGrace,
        long autoCancelAfterMissed,
        long subscribeDeadline,
        long planNonce,
        String planId,
        String digest,
        String merchantSig,
        String kind,
        boolean revoked,
        String status,
        boolean isDeprecated,
        boolean livemode,
        Instant createdAt) {

    public static PublicPlanResponse of(PlanView view) {
        Plan plan = view.plan();
        PlanTerms terms = plan.terms();
        boolean byAmount = terms.byAmount();
        return new PublicPlanResponse(
                plan.id(),
                plan.name(),
                plan.description(),
                plan.metadataUri(),
                NetworkResponse.of(view.network()),
                view.network().chainId(),
                terms.merchant(),
                terms.destination(),
                byAmount ? terms.token() : null,
                byAmount ? null : terms.currency(),
                view.token().currencyCode(),
                byAmount ? null : terms.value(),
                plan.billedAmount().toString(),
                view.token().format(plan.billedAmount()),
                view.token().decimals(),
                terms.interval(),
                terms.trialPeriod(),
                terms.maxArrears(),
                terms.effectiveGrace(),
                terms.autoCancelAfterMissed(),
                terms.subscribeDeadline(),
                terms.planNonce(),
                plan.planId(),
                plan.digest(),
                plan.merchantSig(),
                plan.kind(),
                plan.revoked(),
                plan.status().wireName(),
                plan.deprecated(),
                plan.mode() == Mode.LIVE,
                plan.createdAt());
    }
}
