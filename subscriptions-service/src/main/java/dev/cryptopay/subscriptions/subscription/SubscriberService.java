package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.request.Where;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.plan.PlanService;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/** Subscribers: enrolment invitations, reads, and the merchant's updates (a status change emits its event). */
@Service
public class SubscriberService {

    private final SubscriberRepository subscribers;
    private final PlanService plans;
    private final LinkRepository links;
    private final SubscriptionsProperties properties;
    private final SubscriptionChanges changes;
    private final SubscriberEvents events;
    private final TransactionalOperator tx;
    private final Clock clock;

    public SubscriberService(
            SubscriberRepository subscribers,
            PlanService plans,
            LinkRepository links,
            SubscriptionsProperties properties,
            SubscriptionChanges changes,
            SubscriberEvents events,
            TransactionalOperator tx,
            Clock clock) {
        this.subscribers = subscribers;
        this.plans = plans;
        this.links = links;
        this.properties = properties;
        this.changes = changes;
        this.events = events;
        this.tx = tx;
        this.clock = clock;
    }

    /** One page of subscribers and how many match in all. */
    public record SubscriberListing(List<SubscriberView> subscribers, long total) {}

    /**
     * Invites a customer to an active plan of the merchant; with an e-mail address, the internal
     * {@code subscriber.invited} is written in the same transaction (notification-service e-mails the invitation).
     */
    public Mono<SubscriberView> create(MerchantIdentity merchant, SubscriberRequest request) {
        Instant now = clock.instant();
        return plans.find(merchant, request.planId())
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Subscription plan not found")))
                .flatMap(plan -> {
                    if (!plan.acceptsSubscribers()) {
                        return Mono.error(ApiException.invalidField(
                                "plan_deprecated",
                                "subscription_plan_id",
                                "Subscription plan is deprecated and accepts no new subscribers"));
                    }
                    Subscriber subscriber = new Subscriber(
                            UUID.randomUUID(),
                            merchant.merchantId(),
                            merchant.mode(),
                            plan.id(),
                            request.customerId(),
                            request.customerName(),
                            request.customerEmail(),
                            request.webhookMetadata(),
                            request.successReturnUrl(),
                            request.failureReturnUrl(),
                            SubscriberStatus.INVITATION_SENT,
                            now,
                            now);
                    // The invitation's event needs the plan's terms; a subscriber without an address has none.
                    Mono<Void> invited = SubscriberEvents.hasAddress(subscriber)
                            ? plans.findAny(plan.id()).flatMap(view -> events.invited(subscriber, view, now))
                            : Mono.empty();
                    return tx.transactional(
                            subscribers.insert(subscriber).then(invited).thenReturn(subscriber));
                })
                .flatMap(subscriber -> views(List.of(subscriber)))
                .map(list -> list.get(0));
    }

    public Mono<SubscriberView> get(MerchantIdentity merchant, UUID id) {
        return subscribers
                .find(merchant, id)
                .switchIfEmpty(notFound())
                .flatMap(subscriber -> views(List.of(subscriber)))
                .map(list -> list.get(0));
    }

    /** Subscribers matching the query; {@code invitationsOnly} keeps those still {@code invitation_sent}. */
    public Mono<SubscriberListing> list(MerchantIdentity merchant, SubscriberQuery query, boolean invitationsOnly) {
        Where where = Where.merchant(merchant, "")
                .equal("plan_id", "plan", query.planId())
                .equal("status", "status", invitationsOnly ? SubscriberStatus.INVITATION_SENT.wireName() : null)
                .between("created_at", query.from(), query.to())
                .search(query.search(), "customer_name", "customer_email");
        return subscribers
                .count(where)
                .zipWith(subscribers
                        .page(where, query.page().size(), query.page().offset())
                        .collectList()
                        .flatMap(this::views))
                .map(result -> new SubscriberListing(result.getT2(), result.getT1()));
    }

    /** The subscribers of a plan of the merchant (404 when the plan is not theirs). */
    public Mono<SubscriberListing> listOfPlan(MerchantIdentity merchant, UUID planId, SubscriberQuery query) {
        return plans.find(merchant, planId)
                .switchIfEmpty(Mono.error(() -> ApiException.notFound("Subscription plan not found")))
                .flatMap(plan -> list(merchant, query.forPlan(planId), false));
    }

    /** Applies the merchant's update; a status change writes its event in the same transaction. */
    public Mono<SubscriberView> update(MerchantIdentity merchant, UUID id, SubscriberRequest.Update update) {
        Instant now = clock.instant();
        Mono<Subscriber> change = subscribers
                .lock(merchant, id)
                .switchIfEmpty(notFound())
                .flatMap(subscriber -> changes.subscriber(subscriber.update(update, now), now));
        return tx.transactional(change)
                .flatMap(subscriber -> views(List.of(subscriber)))
                .map(list -> list.get(0));
    }

    private Mono<List<SubscriberView>> views(List<Subscriber> page) {
        return plans.summaries(page.stream().map(Subscriber::planId).distinct().toList())
                .zipWith(links.ofSubscribers(page.stream().map(Subscriber::id).toList()))
                .map(loaded -> page.stream()
                        .map(subscriber -> new SubscriberView(
                                subscriber,
                                loaded.getT1().get(subscriber.planId()),
                                loaded.getT2().get(subscriber.id()),
                                properties.subscriptionLinkUrl(subscriber.id())))
                        .toList());
    }

    private static <T> Mono<T> notFound() {
        return Mono.error(() -> ApiException.notFound("Subscriber not found"));
    }
}
