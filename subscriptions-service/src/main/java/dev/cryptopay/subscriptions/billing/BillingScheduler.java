package dev.cryptopay.subscriptions.billing;

import dev.cryptopay.service.background.BackgroundLoop;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.plan.PlanView;
import dev.cryptopay.subscriptions.subscription.LinkRepository;
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
 * What the chain cannot say, on the service's clock: a link whose {@code expires_at} is within the notice gets
 * {@code subscription.expiring}, once; an enrolment whose transaction showed no confirmed {@code Subscribed} log
 * within {@code enrolment-wait} is marked {@code failed} (a log that still comes activates it, and the customer may
 * enrol again). Payments, misses and cancellations come from the contract's logs alone ({@code ChainFacts}), so a
 * pass emits at most one event per link. Every change and its events are one transaction over rows claimed with
 * {@code FOR UPDATE SKIP LOCKED}, so instances side by side never announce twice, and a crash loses nothing.
 */
@Component
public class BillingScheduler extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(BillingScheduler.class);

    private final BillingRepository billing;
    private final LinkRepository links;
    private final SubscriberRepository subscribers;
    private final PlanService plans;
    private final SubscriptionChanges changes;
    private final TransactionalOperator tx;
    private final SubscriptionsProperties.Billing settings;
    private final Clock clock;

    public BillingScheduler(
            BillingRepository billing,
            LinkRepository links,
            SubscriberRepository subscribers,
            PlanService plans,
            SubscriptionChanges changes,
            TransactionalOperator tx,
            SubscriptionsProperties properties,
            Clock clock) {
        this.billing = billing;
        this.links = links;
        this.subscribers = subscribers;
        this.plans = plans;
        this.changes = changes;
        this.tx = tx;
        this.settings = properties.billing();
        this.clock = clock;
    }

    /** Applies everything due now; answers how many links were announced as expiring or failed. */
    public Mono<Integer> runDue() {
        // One after the other: side by side, each would skip the rows the other has locked.
        return batch(this::unconfirmedBatch)
                .flatMap(failed -> batch(this::expiringBatch).map(expiring -> failed + expiring));
    }

    private Mono<Integer> batch(java.util.function.Supplier<Mono<Integer>> oneBatch) {
        return oneBatch.get()
                .expand(count -> count > 0 ? oneBatch.get() : Mono.empty())
                .reduce(0, Integer::sum);
    }

    private Mono<Integer> unconfirmedBatch() {
        Instant now = clock.instant();
        Mono<Integer> batch = billing.claimUnconfirmed(now.minus(settings.enrolmentWait()), settings.batch())
                .collectList()
                .flatMap(claimed -> Flux.fromIterable(claimed)
                        .concatMap(link -> {
                            log.info(
                                    "Link {}: no confirmed Subscribed log in {} after {}; marked failed",
                                    link.id(),
                                    link.subscribeHash(),
                                    settings.enrolmentWait());
                            return links.update(link.failed(now));
                        })
                        .then(Mono.just(claimed.size())));
        return tx.transactional(batch);
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
                        log.info("Billing marked {} expiring or unconfirmed links", count);
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
