package dev.cryptopay.subscriptions.plan;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.service.request.Where;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.network.NetworkCatalog;
import dev.cryptopay.subscriptions.network.ReferenceData;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/** Plans: typed data to sign, creation after the signature checks out, reads, detail updates and deprecation. */
@Service
public class PlanService {

    private final PlanRepository plans;
    private final NetworkCatalog catalog;
    private final SubscriptionsProperties properties;
    private final TransactionalOperator tx;
    private final Clock clock;

    public PlanService(
            PlanRepository plans,
            NetworkCatalog catalog,
            SubscriptionsProperties properties,
            TransactionalOperator tx,
            Clock clock) {
        this.plans = plans;
        this.catalog = catalog;
        this.properties = properties;
        this.tx = tx;
        this.clock = clock;
    }

    /**
     * The typed data for these terms; without a plan_nonce, the next one unused by the merchant address there. A
     * nonce already used is refused here, before anything is signed.
     */
    public Mono<PlanTypedData> typedData(MerchantIdentity merchant, PlanRequest request) {
        return resolve(merchant, request).flatMap(resolved -> {
            UUID network = resolved.network().id();
            String address = resolved.terms().merchant();
            if (request.planNonce() == null) {
                return plans.nextNonce(merchant, network, address)
                        .map(nonce -> resolved.withPlanNonce(nonce).typedData());
            }
            return plans.nonceUsed(merchant, network, address, request.planNonce())
                    .flatMap(used -> used ? Mono.error(nonceUsed(resolved)) : Mono.just(resolved.typedData()));
        });
    }

    /** Creates the plan when {@code merchant_sig} is the merchant address's signature of exactly these terms. */
    public Mono<PlanView> create(MerchantIdentity merchant, PlanRequest request) {
        return resolve(merchant, request).flatMap(resolved -> {
            PlanTypedData typedData = resolved.typedData();
            String digest = typedData.digest();
            String signer = EthSignatures.signer(digest, request.merchantSig())
                    .orElseThrow(() -> ApiException.invalidField(
                            "invalid_merchant_signature",
                            "merchant_sig",
                            "merchant_sig must be a 65-byte secp256k1 signature (r, s, v) as 0x-hex, with low s"));
            if (!Addresses.same(signer, resolved.terms().merchant())) {
                throw ApiException.invalidField(
                        "invalid_merchant_signature",
                        "merchant_sig",
                        "merchant_sig is not a signature of these plan terms by "
                                + resolved.terms().merchant()
                                + " (sign the typed data of POST /subscriptions/plans/typed-data)");
            }
            Instant now = clock.instant();
            Plan plan = new Plan(
                    UUID.randomUUID(),
                    merchant.merchantId(),
                    merchant.mode(),
                    resolved.network().id(),
                    resolved.token().id(),
                    resolved.terms(),
                    resolved.billedAmount(),
                    typedData.structHash(),
                    digest,
                    request.merchantSig(),
                    false,
                    Plan.SOURCE_API,
                    request.name(),
                    request.description(),
                    request.metadataUri(),
                    PlanStatus.ACTIVE,
                    null,
                    now,
                    now);
            return plans.insert(plan)
                    .onErrorMap(DuplicateKeyException.class, duplicate -> nonceUsed(resolved))
                    .then(view(plan, now));
        });
    }

    public Mono<PlanListing> list(MerchantIdentity merchant, PlanQuery query) {
        Where where = Where.merchant(merchant, "")
                .search(query.search(), "name")
                .between("created_at", query.from(), query.to());
        if (query.deprecated() != null) {
            where = where.equal("status", "status", query.deprecated() ? "deprecated" : "active");
        }
        Where filter = where;
        Instant now = clock.instant();
        return plans.count(filter)
                .zipWith(plans.page(filter, query.page().size(), query.page().offset())
                        .collectList()
                        .flatMap(page -> views(page, now)))
                .map(result -> new PlanListing(result.getT2(), result.getT1()));
    }

    public Mono<PlanView> get(MerchantIdentity merchant, UUID id) {
        return plans.find(merchant, id).switchIfEmpty(notFound()).flatMap(plan -> view(plan, clock.instant()));
    }

    public Mono<PlanView> update(MerchantIdentity merchant, UUID id, PlanUpdate update) {
        Instant now = clock.instant();
        return tx.transactional(plans.lock(merchant, id)
                        .switchIfEmpty(notFound())
                        .flatMap(plan -> save(plan.update(update, now))))
                .flatMap(plan -> view(plan, now));
    }

    public Mono<PlanView> deprecate(MerchantIdentity merchant, UUID id) {
        return update(merchant, id, PlanUpdate.DEPRECATE);
    }

    /** Stores a plan's move; plans emit no events. */
    private Mono<Plan> save(Transition<Plan> move) {
        return move.changed() ? plans.updateDetails(move.state()).thenReturn(move.state()) : Mono.just(move.state());
    }

    /** Active plans of any merchant, for customers: the signed terms are public on-chain anyway. */
    public Mono<PlanListing> publicList(PublicPlanQuery query) {
        Where where = Where.publicRows()
                .equal("status", "status", PlanStatus.ACTIVE.wireName())
                .equal("revoked", "revoked", false)
                .equal("merchant_address", "address", query.merchant())
                .equal("network_id", "network", query.networkId());
        return plans.count(where)
                .zipWith(plans.page(where, query.page().size(), query.page().offset())
                        .collectList()
                        .flatMap(this::withoutCounts))
                .map(result -> new PlanListing(result.getT2(), result.getT1()));
    }

    /** Any plan by id, deprecated ones included (their subscribers still look them up). */
    public Mono<PlanView> publicGet(UUID id) {
        return plans.findAny(id)
                .switchIfEmpty(notFound())
                .flatMap(plan -> withoutCounts(List.of(plan)))
                .map(list -> list.get(0));
    }

    /** Any plan by id with its network and token, for customer flows; empty when there is none. */
    public Mono<PlanView> findAny(UUID id) {
        return plans.findAny(id).flatMap(plan -> withoutCounts(List.of(plan))).map(list -> list.get(0));
    }

    private Mono<List<PlanView>> withoutCounts(List<Plan> page) {
        return catalog.referenceData()
                .map(reference -> page.stream()
                        .map(plan -> view(plan, reference, Map.of(), Map.of()))
                        .toList());
    }

    /**
     * The contract revoked the plan {@code planId} of the merchant address: every plan stored with both is marked
     * revoked (never offered again). Answers how many were.
     */
    public Mono<Long> revokedOnChain(String merchantAddress, String planId, Instant now) {
        return plans.revoke(merchantAddress, planId, now);
    }

    /** A merchant's plan, for other features (subscribers); empty when it is not theirs or does not exist. */
    public Mono<Plan> find(MerchantIdentity merchant, UUID id) {
        return plans.find(merchant, id);
    }

    /** The plans among these ids (read from the caller's already scoped rows), with what a summary shows. */
    public Mono<Map<UUID, PlanView>> summaries(List<UUID> ids) {
        return plans.findAll(ids)
                .zipWith(catalog.referenceData())
                .map(loaded -> loaded.getT1().values().stream()
                        .collect(java.util.stream.Collectors.toMap(
                                Plan::id, plan -> view(plan, loaded.getT2(), Map.of(), Map.of()))));
    }

    /** Plans with their networks, tokens, counts and newest subscribers, in the given order. */
    public Mono<List<PlanView>> views(List<Plan> page, Instant now) {
        List<UUID> ids = page.stream().map(Plan::id).toList();
        return Mono.zip(catalog.referenceData(), plans.counts(ids, now), plans.newestSubscribers(ids))
                .map(loaded -> page.stream()
                        .map(plan -> view(plan, loaded.getT1(), loaded.getT2(), loaded.getT3()))
                        .toList());
    }

    private Mono<PlanView> view(Plan plan, Instant now) {
        return views(List.of(plan), now).map(list -> list.get(0));
    }

    private static PlanView view(
            Plan plan,
            ReferenceData reference,
            Map<UUID, SubscriberCounts> counts,
            Map<UUID, List<PlanSubscriber>> newest) {
        return new PlanView(
                plan,
                reference.network(plan.networkId()).orElseThrow(),
                reference.token(plan.tokenId()).orElseThrow(),
                counts.getOrDefault(plan.id(), SubscriberCounts.none(plan.id())),
                newest.getOrDefault(plan.id(), List.of()));
    }

    private Mono<ResolvedPlan> resolve(MerchantIdentity merchant, PlanRequest request) {
        return catalog.referenceData()
                .map(reference -> ResolvedPlan.of(request, reference, properties, merchant.mode()));
    }

    private static ApiException nonceUsed(ResolvedPlan plan) {
        return ApiException.conflict(
                "plan_nonce_used",
                "plan_nonce " + plan.terms().planNonce() + " is already used by "
                        + plan.terms().merchant() + " on " + plan.network().name()
                        + "; sign the plan with a new plan_nonce");
    }

    private static <T> Mono<T> notFound() {
        return Mono.error(() -> ApiException.notFound("Subscription plan not found"));
    }

    /** One page of plans and how many match in all. */
    public record PlanListing(List<PlanView> plans, long total) {}
}
