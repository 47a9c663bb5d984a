package dev.cryptopay.subscriptions.billing;

import dev.cryptopay.service.background.BackgroundLoop;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.plan.PlanTerms;
import dev.cryptopay.subscriptions.plan.PlanView;
import dev.cryptopay.subscriptions.subscription.Subscriber;
import dev.cryptopay.subscriptions.subscription.SubscriberRepository;
import dev.cryptopay.subscriptions.subscription.SubscriptionChanges;
import dev.cryptopay.subscriptions.subscription.SubscriptionLink;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Applies the billing rules on the service's clock, durably: when a link's due period passes its grace
 * ({@code max_arrears}) unpaid, the period is missed — its charge becomes debt ({@code owed}), the next period is
 * due, and {@code subscription.payment.failed} is written; the {@code auto_cancel_after_missed}-th miss in a row
 * cancels the subscriber and stops the link ({@code subscription.cancelled}). A link whose {@code expires_at} is
 * within the notice gets {@code subscription.expiring}, once. Every change and its events are one transaction over
 * rows claimed with {@code FOR UPDATE SKIP LOCKED}, so instances side by side never bill or announce twice, and a
 * crash loses nothing. A link missing several periods catches up one period per claim.
 */
@Component
public class BillingScheduler extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(BillingScheduler.class);

    private final BillingRepository billing;
    private final SubscriberRepository subscribers;
    private final PlanService plans;
    private final SubscriptionChanges changes;
    private final TransactionalOperator tx;
    private final SubscriptionsProperties.Billing settings;
    private final Clock clock;

    public BillingScheduler(
            BillingRepository billing,
            SubscriberRepository subscribers,
            PlanService plans,
            SubscriptionChanges changes,
            TransactionalOperator tx,
            SubscriptionsProperties properties,
            Clock clock) {
        this.billing = billing;
        this.subscribers = subscribers;
        this.plans = plans;
        this.changes = changes;
        this.tx = tx;
        this.settings = properties.billing();
        this.clock = clock;
    }

    /** Applies everything due now; answers how many periods were missed and links announced as expiring. */
    public Mono<Integer> runDue() {
        // One after the other: side by side, each would skip the rows the other has locked.
        return batch(this::missedBatch)
                .flatMap(missed -> batch(this::expiringBatch).map(expiring -> missed + expiring));
    }

    private Mono<Integer> batch(java.util.function.Supplier<Mono<Integer>> oneBatch) {
        return oneBatch.get()
                .expand(count -> count > 0 ? oneBatch.get() : Mono.empty())
                .reduce(0, Integer::sum);
    }

    private Mono<Integer> missedBatch() {
        Instant now = clock.instant();
        // Claim the whole batch before writing: one connection cannot run a query while it streams another's rows.
        Mono<Integer> batch = billing.claimMissed(now, settings.batch())
                .collectList()
                .flatMap(claimed -> context(claimed)
                        .flatMapMany(context -> Flux.fromIterable(claimed)
                                .concatMap(link -> miss(
                                                link,
                                                context.plans().get(link.planId()),
                                                context.subscribers().get(link.subscriberId()),
                                                now)
                                        .thenReturn(link)))
                        .count()
                        .map(Long::intValue));
        return tx.transactional(batch);
    }

    private Mono<Void> miss(SubscriptionLink link, PlanView plan, Subscriber subscriber, Instant now) {
        PlanTerms terms = plan.plan().terms();
        return changes.link(
                        link.missed(plan.plan().billedAmount(), terms.interval(), terms.autoCancelAfterMissed(), now),
                        link,
                        Transition.unchanged(subscriber),
                        plan,
                        null,
                        now)
                .then();
    }

    private Mono<Integer> expiringBatch() {
        Instant now = clock.instant();
        Mono<Integer> batch = billing.claimExpiring(now, now.plus(settings.expiringNotice()), settings.batch())
                .collectList()
                .flatMap(claimed -> context(claimed)
                        .flatMapMany(context -> Flux.fromIterable(claimed)
                                .concatMap(link -> billing.markExpiringNotified(link, now)
                                        .then(changes.link(
                                                link.expiring(),
                                                link,
                                                Transition.unchanged(
                                                        context.subscribers().get(link.subscriberId())),
                                                context.plans().get(link.planId()),
                                                null,
                                                now))
                                        .thenReturn(link)))
                        .count()
                        .map(Long::intValue));
        return tx.transactional(batch);
    }

    /** The plans and subscribers of a claimed batch. */
    private record Context(Map<UUID, PlanView> plans, Map<UUID, Subscriber> subscribers) {}

    private Mono<Context> context(List<SubscriptionLink> claimed) {
        if (claimed.isEmpty()) {
            return Mono.just(new Context(Map.of(), Map.of()));
        }
        return plans.summaries(claimed.stream()
                        .map(SubscriptionLink::planId)
                        .distinct()
                        .toList())
                .zipWith(subscribers.findAll(
                        claimed.stream().map(SubscriptionLink::subscriberId).toList()))
                .map(loaded -> new Context(loaded.getT1(), loaded.getT2()));
    }

    @Override
    protected Mono<Duration> runOnce() {
        return runDue().doOnNext(count -> {
                    if (count > 0) {
                        log.info("Billing applied {} missed periods and expiry notices", count);
                    }
                })
                .thenReturn(settings.interval());
    }

    @Override
    protected Duration delayAfterFailure() {
        return settings.interval();
    }

    @Override
    protected boolean enabled() {
        return settings.enabled();
    }
}
