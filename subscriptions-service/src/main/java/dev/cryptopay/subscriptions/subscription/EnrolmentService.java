package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.subscriptions.plan.Addresses;
import dev.cryptopay.subscriptions.plan.Plan;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.plan.PlanView;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * A customer enrols: the wallet's approvals are checked against the plan, the link is stored, the subscriber becomes
 * {@code active}, and {@code subscription.created} then {@code subscription.activated} are written — one transaction.
 */
@Service
public class EnrolmentService {

    private final SubscriberRepository subscribers;
    private final LinkRepository links;
    private final LinkService linkViews;
    private final PlanService plans;
    private final SubscriptionChanges changes;
    private final TransactionalOperator tx;
    private final JsonMapper json;
    private final Clock clock;

    public EnrolmentService(
            SubscriberRepository subscribers,
            LinkRepository links,
            LinkService linkViews,
            PlanService plans,
            SubscriptionChanges changes,
            TransactionalOperator tx,
            JsonMapper json,
            Clock clock) {
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
        Mono<SubscriptionLink> enrolment = enrollee(request, now)
                .flatMap(subscriber ->
                        plans.findAny(subscriber.planId()).flatMap(plan -> link(request, subscriber, plan, now)));
        return tx.transactional(enrolment)
                .onErrorMap(
                        DuplicateKeyException.class,
                        duplicate -> ApiException.conflict("already_enrolled", "This subscriber is already enrolled"))
                .flatMap(linkViews::view);
    }

    /** The invited subscriber (row-locked), or a new one for the plan. */
    private Mono<Subscriber> enrollee(EnrolmentRequest request, Instant now) {
        if (request.subscriberId() != null) {
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
                        if (request.customerId() != null
                                && !request.customerId().equals(subscriber.customerId())) {
                            throw ApiException.invalidField(
                                    "validation_failed",
                                    "customer_id",
                                    "customer_id is the merchant's and comes from the invitation: it must be the"
                                            + " invitation's or left out");
                        }
                        return subscriber;
                    });
        }
        return plans.findAny(request.planId())
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Subscription plan not found")))
                .flatMap(plan -> {
                    Plan p = plan.plan();
                    Subscriber subscriber = new Subscriber(
                            UUID.randomUUID(),
                            p.merchantId(),
                            p.mode(),
                            p.id(),
                            request.customerId(),
                            request.customerName(),
                            request.customerEmail(),
                            null,
                            null,
                            null,
                            SubscriberStatus.INVITATION_SENT,
                            now,
                            now);
                    return subscribers.insert(subscriber).thenReturn(subscriber);
                });
    }

    private Mono<SubscriptionLink> link(EnrolmentRequest request, Subscriber subscriber, PlanView view, Instant now) {
        Plan plan = view.plan();
        // Called inside flatMap: a refusal thrown here becomes the enrolment's error.
        Invitation.checkOpen(subscriber, plan, now);
        checkApprovals(request, view);
        long trial = plan.terms().trialPeriod();
        Instant subscribedAt = request.subscribedAt() != null ? request.subscribedAt() : now;
        // The trial's end starts the first period; without a trial the first period starts at enrolment.
        Instant planTrialEnd = trial > 0 ? subscribedAt.plus(Duration.ofSeconds(trial)) : null;
        Instant trialEndsAt = request.trialEndsAt() != null ? request.trialEndsAt() : planTrialEnd;
        if (request.trialEndsAt() != null
                && (planTrialEnd == null || trialEndsAt.isBefore(subscribedAt) || trialEndsAt.isAfter(planTrialEnd))) {
            return Mono.error(ApiException.invalidField(
                    "validation_failed",
                    "trial_ends_at",
                    planTrialEnd == null
                            ? "trial_ends_at: the plan has no trial"
                            : "trial_ends_at must lie between subscribed_at and the end of the plan's trial ("
                                    + planTrialEnd + ")"));
        }
        SubscriptionLink link = new SubscriptionLink(
                UUID.randomUUID(),
                subscriber.merchantId(),
                subscriber.mode(),
                plan.id(),
                subscriber.id(),
                request.walletAddress(),
                request.subscribeHash(),
                request.onchainId(),
                json.writeValueAsString(request.approvals()),
                BigInteger.ZERO,
                0,
                false,
                subscribedAt,
                trialEndsAt,
                request.expiresAt(),
                true,
                trialEndsAt != null ? trialEndsAt : subscribedAt,
                0,
                now,
                now);
        return changes.link(
                SubscriptionLink.enrol(link),
                null,
                subscriber.enrolled(request.customerName(), request.customerEmail(), now),
                view,
                null,
                now);
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
