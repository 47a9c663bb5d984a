package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.service.events.Transition;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * A subscription plan: terms the merchant signed (never changed after creation), what each period bills in base
 * units of {@code tokenId}, and the unsigned details: name, metadata URI and status, which the merchant may change,
 * and the description given at creation. Deprecation stops new subscribers and can be undone; it never touches existing ones.
 */
public record Plan(
        UUID id,
        UUID merchantId,
        Mode mode,
        UUID networkId,
        UUID tokenId,
        PlanTerms terms,
        BigInteger billedAmount,
        String planId,
        String digest,
        String merchantSig,
        boolean revoked,
        String source,
        String name,
        String description,
        String metadataUri,
        PlanStatus status,
        Instant deprecatedAt,
        Instant createdAt,
        Instant updatedAt) {

    /** What a plan was made from: {@code api} for plans created through the merchant API. */
    public static final String SOURCE_API = "api";

    public String kind() {
        return terms.byAmount() ? "amount" : "value";
    }

    public boolean deprecated() {
        return status == PlanStatus.DEPRECATED;
    }

    public boolean acceptsSubscribers() {
        return status == PlanStatus.ACTIVE && !revoked;
    }

    /**
     * The plan with the merchant's changes of its unsigned details: an absent member keeps its value, a cleared
     * {@code metadata_uri} is removed. Plans emit no events: their moves change only what the merchant sees.
     */
    public Transition<Plan> update(PlanUpdate update, Instant now) {
        return withDetails(update.name().applyTo(name), update.metadataUri().applyTo(metadataUri), now)
                .then(plan -> plan.withStatus(update.status().applyTo(status), now));
    }

    /** Deprecated from now on (a plan already deprecated keeps its first deprecation time). */
    public Transition<Plan> deprecate(Instant now) {
        return withStatus(PlanStatus.DEPRECATED, now);
    }

    private Transition<Plan> withStatus(PlanStatus newStatus, Instant now) {
        if (newStatus == status) {
            return Transition.unchanged(this);
        }
        return Transition.to(copy(name, metadataUri, newStatus, newStatus == PlanStatus.DEPRECATED ? now : null, now));
    }

    private Transition<Plan> withDetails(String newName, String newMetadataUri, Instant now) {
        if (newName.equals(name) && Objects.equals(newMetadataUri, metadataUri)) {
            return Transition.unchanged(this);
        }
        return Transition.to(copy(newName, newMetadataUri, status, deprecatedAt, now));
    }

    /** The plan with the details a merchant may change; the signed terms never change. */
    private Plan copy(
            String newName, String newMetadataUri, PlanStatus newStatus, Instant newDeprecatedAt, Instant now) {
        return new Plan(
                id,
                merchantId,
                mode,
                networkId,
                tokenId,
                terms,
                billedAmount,
                planId,
                digest,
                merchantSig,
                revoked,
                source,
                newName,
                description,
                newMetadataUri,
                newStatus,
                newDeprecatedAt,
                createdAt,
                now);
    }
}
