package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.subscriptions.plan.Addresses;
import dev.cryptopay.subscriptions.plan.Plan;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.plan.PlanView;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * A customer enrols its subscriber (invited, or made by {@code prepare} for a self-service sign-up): the wallet's
 * approvals are checked against the plan and the link is stored {@code pending} with the transaction the wallet names —
 * a hint, not a fact. The link becomes active, the subscriber {@code active}, and
 * {@code subscription.created} then {@code subscription.activated} are written only when the chain watcher reports
 * a confirmed {@code Subscribed} log of that transaction for this plan, wallet and subscriber — its {@code ref} names
 * the subscriber, so reporting someone else's transaction activates nothing ({@link ChainFacts}) — before or after
 * this call. Times come from the chain; {@code subscribed_at} and {@code trial_ends_at} in the body
 * are not used.
 */
@Service
public class EnrolmentService {

    private final SubscriberRepository subscribers;
    private final LinkRepository links;
    private final LinkService linkViews;
    private final PlanService plans;
    private final SubscriptionChanges changes;
    private final ChainFacts facts;
    private final TransactionalOperator tx;
    private final JsonMapper json;
    private final Clock clock;

    public EnrolmentService(
            SubscriberRepository subscribers,
            LinkRepository links,
            LinkService linkViews,
            PlanService plans,
            SubscriptionChanges changes,
            ChainFacts facts,
            TransactionalOperator tx,
            JsonMapper json,
            Clock clock) {
        this.facts = facts;
        this.subscribers = subscribers;
        this.links = links;
        this.linkViews = linkViews;
        this.plans = plans;
        this.changes = changes;
        this.tx = tx;
        this.json = json;
        this.clock = clock;
    }

    public Mono<LinkView> enrol(EnrolmentRequest request) {
        Instant now = clock.instant();
        Mono<SubscriptionLink> enrolment = enrollee(request)
                .flatMap(subscriber ->
                        plans.findAny(subscriber.planId()).flatMap(plan -> link(request, subscriber, plan, now)));
        return tx.transactional(enrolment)
                .onErrorMap(
                        DuplicateKeyException.class,
                        duplicate -> ApiException.conflict("already_enrolled", "This subscriber is already enrolled"))
                .flatMap(linkViews::view);
    }

    /**
     * The subscriber (row-locked): invited by the merchant, or made for a self-service sign-up by {@code prepare}.
     * Either way its id is what the wallet's {@code ref} names, so only whoever holds it can enrol with it.
     */
    private Mono<Subscriber> enrollee(EnrolmentRequest request) {
        return subscribers
                .lockAny(request.subscriberId())
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Subscriber not found")))
                .map(subscriber -> {
                    if (!subscriber.planId().equals(request.planId())) {
                        throw ApiException.invalidField(
                                "validation_failed",
                                "subscriber_id",
                                "subscriber_id was invited to another plan than subscription_plan_id");
                    }
                    return subscriber;
                });
    }

    /**
     * Stores the link as {@code pending} (or, when an earlier try is still unconfirmed or failed, points it at the new
     * wallet and transaction), fills the customer's details the invitation left blank, then applies the chain's
     * {@code Subscribed} log of that transaction if the watcher reported it already.
     */
    private Mono<SubscriptionLink> link(EnrolmentRequest request, Subscriber subscriber, PlanView view, Instant now) {
        Plan plan = view.plan();
        // Called inside flatMap: a refusal thrown here becomes the enrolment's error.
        Invitation.checkOpen(subscriber, plan, now);
        checkApprovals(request, view);
        String approvals = json.writeValueAsString(request.approvals());
        Transition<Subscriber> details = subscriber.details(request.customerName(), request.customerEmail(), now);
        return links.ofSubscriber(subscriber.id())
                .flatMap(earlier -> {
                    if (earlier.chainStatus() == ChainStatus.SUBSCRIBED || earlier.chainStatus() == ChainStatus.ENDED) {
                        return Mono.error(
                                ApiException.conflict("already_enrolled", "This subscriber is already enrolled"));
                    }
                    SubscriptionLink retried = earlier.retried(
                            request.walletAddress(),
                            request.subscribeHash(),
                            request.onchainId(),
                            approvals,
                            request.expiresAt(),
                            now);
                    return changes.link(Transition.to(retried), earlier, details, view, null, now);
                })
                .switchIfEmpty(Mono.defer(() -> changes.link(
                        Transition.to(SubscriptionLink.pending(
                                subscriber,
                                request.walletAddress(),
                                request.subscribeHash(),
                                request.onchainId(),
                                approvals,
                                request.expiresAt(),
                                now)),
                        null,
                        details,
                        view,
                        null,
                        now)))
                .flatMap(link -> facts.applyWaiting(link.subscribeHash(), now).then(links.lockAny(link.id())));
    }

    /** At least one approval covers one period of the plan's token on the plan's network. */
    private static void checkApprovals(EnrolmentRequest request, PlanView view) {
        BigInteger perPeriod = view.plan().billedAmount();
        boolean covered = request.approvals().stream()
                .anyMatch(approval ->
                        Addresses.same(approval.tokenAddress(), view.token().contractAddress())
                                && approval.networkName()
                                        .toLowerCase(Locale.ROOT)
                                        .equals(view.network().name().toLowerCase(Locale.ROOT))
                                && (approval.chainId() == null
                                        || approval.chainId() == view.network().chainId())
                                && (approval.decimals() == null
                                        || approval.decimals() == view.token().decimals())
                                && approval.amount().compareTo(perPeriod) >= 0);
        if (!covered) {
            throw ApiException.invalidField(
                    "insufficient_approval",
                    "approvals",
                    "approvals must include " + view.token().currencyCode() + " ("
                            + view.token().contractAddress() + ") on "
                            + view.network().name()
                            + " for at least one period (" + perPeriod + " base units)");
        }
    }
}
