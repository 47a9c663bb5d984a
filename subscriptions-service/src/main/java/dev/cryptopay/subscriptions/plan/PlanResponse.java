package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.subscriptions.network.Network;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * SubscriptionPlanResponse. {@code token} is null on value-based plans and {@code currency} / {@code value} on
 * amount-based ones; {@code amount} is what one period bills in the token's base units either way, and
 * {@code formatted_amount} the same in token units. {@code subscribers} lists the newest ten.
 */
public record PlanResponse(
        UUID id,
        UUID merchantId,
        UUID networkId,
        long chainId,
        NetworkResponse network,
        String merchantAddress,
        String destinationAddress,
        String token,
        UUID currencyId,
        String currency,
        String currencySymbol,
        String value,
        String amount,
        String formattedAmount,
        long interval,
        long trialPeriod,
        long maxArrears,
        long effectiveGrace,
        long autoCancelAfterMissed,
        long subscribeDeadline,
        long planNonce,
        String planId,
        String digest,
        boolean revoked,
        String source,
        String kind,
        String metadataUri,
        String name,
        String description,
        boolean isDeprecated,
        Instant deprecatedAt,
        String status,
        long totalSubscribers,
        long activeSubscribers,
        long trialSubscribers,
        long failedSubscribers,
        List<Subscriber> subscribers,
        Instant createdAt,
        Instant updatedAt) {

    /** The network object of a plan. */
    public record NetworkResponse(
            UUID id, String name, long chainId, String symbol, boolean isActive, Instant createdAt, Instant updatedAt) {

        public static NetworkResponse of(Network network) {
            return new NetworkResponse(
                    network.id(),
                    network.name(),
                    network.chainId(),
                    network.symbol(),
                    network.active(),
                    network.createdAt(),
                    network.updatedAt());
        }
    }

    /** A subscriber as a plan lists it. */
    public record Subscriber(
            UUID id, String customerId, String customerName, String customerEmail, String status, Instant createdAt) {}

    public static PlanResponse of(PlanView view) {
        Plan plan = view.plan();
        PlanTerms terms = plan.terms();
        boolean byAmount = terms.byAmount();
        return new PlanResponse(
                plan.id(),
                plan.merchantId(),
                plan.networkId(),
                view.network().chainId(),
                NetworkResponse.of(view.network()),
                terms.merchant(),
                terms.destination(),
                byAmount ? terms.token() : null,
                view.token().currencyId(),
                byAmount ? null : terms.currency(),
                view.token().currencyCode(),
                byAmount ? null : terms.value(),
                plan.billedAmount().toString(),
                view.token().format(plan.billedAmount()),
                terms.interval(),
                terms.trialPeriod(),
                terms.maxArrears(),
                terms.effectiveGrace(),
                terms.autoCancelAfterMissed(),
                terms.subscribeDeadline(),
                terms.planNonce(),
                plan.planId(),
                plan.digest(),
                plan.revoked(),
                plan.source(),
                plan.kind(),
                plan.metadataUri(),
                plan.name(),
                plan.description(),
                plan.deprecated(),
                plan.deprecatedAt(),
                plan.status().wireName(),
                view.counts().total(),
                view.counts().active(),
                view.counts().trial(),
                view.counts().failed(),
                view.subscribers().stream()
                        .map(s -> new Subscriber(
                                s.id(), s.customerId(), s.customerName(), s.customerEmail(), s.status(), s.createdAt()))
                        .toList(),
                plan.createdAt(),
                plan.updatedAt());
    }
}
