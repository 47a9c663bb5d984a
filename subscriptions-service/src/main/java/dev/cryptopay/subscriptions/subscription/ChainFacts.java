package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.events.Transition;
import dev.cryptopay.service.text.Storable;
import dev.cryptopay.subscriptions.config.SubscriptionsProperties;
import dev.cryptopay.subscriptions.onchain.ChainLog;
import dev.cryptopay.subscriptions.onchain.ChainLogBook;
import dev.cryptopay.subscriptions.onchain.ContractEvent;
import dev.cryptopay.subscriptions.onchain.ContractEvent.Cancelled;
import dev.cryptopay.subscriptions.onchain.ContractEvent.Charged;
import dev.cryptopay.subscriptions.onchain.ContractEvent.Missed;
import dev.cryptopay.subscriptions.onchain.ContractEvent.PlanRevoked;
import dev.cryptopay.subscriptions.onchain.ContractEvent.Subscribed;
import dev.cryptopay.subscriptions.onchain.LogOutcome;
import dev.cryptopay.subscriptions.plan.Addresses;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.plan.PlanView;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Applies what the subscription contract said, and nothing else: each confirmed log the chain watcher reports moves
 * the links it is about, once, in one transaction with its events.
 *
 * <ul>
 *   <li>{@code Subscribed} activates the links waiting on its transaction whose plan, wallet and subscriber
 *       ({@code ref}) it matches; times come from the block and the log ({@code subscription.created},
 *       {@code .activated}).
 *   <li>{@code Charged} records the period's payment, keyed by (link, period start) so a period collected again after
 *       a reorganisation counts once ({@code subscription.payment.success}). A period someone collected while the
 *       link was stopped (not billed, or past its end: the platform's keeper never collects those) is recorded all
 *       the same, the money moved, flagged {@code collected_after_stop} and counted in
 *       {@code subscriptions_collected_after_stop_total}.
 *   <li>{@code Missed} adds the missed periods to {@code owed} ({@code subscription.payment.failed}, once, with the
 *       number of periods).
 *   <li>{@code Cancelled} ends the link ({@code chain_status} ended: it stops for good) and cancels its subscriber
 *       ({@code subscription.cancelled}).
 *   <li>{@code PlanRevoked} marks the plan revoked.
 * </ul>
 *
 * A log that comes before the link knows it (the wallet reported its enrolment late) is kept {@code unmatched} and
 * applied by the enrolment. A confirmed log a deeper reorganisation took away marks its payment failed, rolls its
 * link's paid periods back and announces it ({@code subscription.payment.failed}, reason {@code reorganised}).
 */
@Service
public class ChainFacts {

    private static final Logger log = LoggerFactory.getLogger(ChainFacts.class);

    private final ChainLogBook book;
    private final LinkRepository links;
    private final SubscriberRepository subscribers;
    private final PlanService plans;
    private final SubscriptionChanges changes;
    private final SubscriptionsProperties properties;
    private final TransactionalOperator tx;
    private final MeterRegistry metrics;
    private final Clock clock;

    public ChainFacts(
            ChainLogBook book,
            LinkRepository links,
            SubscriberRepository subscribers,
            PlanService plans,
            SubscriptionChanges changes,
            SubscriptionsProperties properties,
            TransactionalOperator tx,
            MeterRegistry metrics,
            Clock clock) {
        this.book = book;
        this.links = links;
        this.subscribers = subscribers;
        this.plans = plans;
        this.changes = changes;
        this.properties = properties;
        this.tx = tx;
        this.metrics = metrics;
        this.clock = clock;
        // From 0 on every chain with a contract, so the first one shows as an increase.
        properties.contracts().keySet().forEach(this::collectedAfterStop);
    }

    private Counter collectedAfterStop(long chainId) {
        return metrics.counter("subscriptions.collected.after.stop", "chain_id", Long.toString(chainId));
    }

    /** What a report did; {@code known} when the same log was reported before (its first outcome stands). */
    public record Applied(LogOutcome outcome, boolean known) {}

    /** Applies one reported log, idempotently per (chain, transaction, log index). */
    public Mono<Applied> report(ChainLog report) {
        Instant now = clock.instant();
        Optional<ContractEvent> event = ours(report) ? ContractEvent.decode(report) : Optional.empty();
        String subscriptionId = event.map(ContractEvent::subscriptionId).orElse(null);
        Mono<Applied> work = book.receive(report, subscriptionId, now).flatMap(entry -> {
            if (entry.known()) {
                Mono<Void> removal = report.removed() && !entry.removed() ? removed(report, now) : Mono.empty();
                return removal.thenReturn(new Applied(entry.outcome(), true));
            }
            if (report.removed()) {
                // Taken away before it was ever applied: kept as seen, never applied.
                return book.settle(report, LogOutcome.IGNORED, now)
                        .then(book.markRemoved(report, now))
                        .thenReturn(new Applied(LogOutcome.IGNORED, false));
            }
            Mono<LogOutcome> outcome =
                    event.map(found -> apply(report, found, now)).orElse(Mono.just(LogOutcome.IGNORED));
            return outcome.flatMap(result -> book.settle(report, result, now).thenReturn(new Applied(result, false)));
        });
        return tx.transactional(work);
    }

    /**
     * Applies the confirmed {@code Subscribed} logs of the transaction a link now names (they came before the
     * enrolment), inside the caller's transaction, which holds the link's row.
     */
    Mono<Void> applyWaiting(String subscribeHash, Instant now) {
        return book.unmatchedIn(subscribeHash)
                .filter(this::ours)
                .concatMap(stored -> ContractEvent.decode(stored)
                        .filter(Subscribed.class::isInstance)
                        .map(event -> apply(stored, event, now).flatMap(result -> book.settle(stored, result, now)))
                        .orElse(Mono.empty()))
                .then();
    }

    /** Whether the log is of the subscription contract configured for its chain. */
    private boolean ours(ChainLog report) {
        return properties
                .contract(report.chainId())
                .filter(contract -> Addresses.same(contract, report.contract()))
                .isPresent();
    }

    private Mono<LogOutcome> apply(ChainLog report, ContractEvent event, Instant now) {
        if (event instanceof Subscribed subscribed) {
            return subscribed(report, subscribed, now);
        }
        if (event instanceof Charged charged) {
            return each(charged.subscriptionId(), (link, plan) -> charged(report, charged, link, plan, now));
        }
        if (event instanceof Missed missed) {
            return each(missed.subscriptionId(), (link, plan) -> missed(report, missed, link, plan, now));
        }
        if (event instanceof Cancelled cancelled) {
            return each(cancelled.subscriptionId(), (link, plan) -> ended(link, plan, now));
        }
        PlanRevoked revoked = (PlanRevoked) event;
        return plans.revokedOnChain(revoked.merchant(), revoked.planId(), now)
                .map(count -> count > 0 ? LogOutcome.APPLIED : LogOutcome.UNMATCHED);
    }

    /**
     * Activates the waiting links the log matches: at most one per merchant account and mode (the oldest enrolment
     * naming the transaction), none where that account already holds the subscription.
     */
    private Mono<LogOutcome> subscribed(ChainLog report, Subscribed event, Instant now) {
        return links.lockOnChain(event.subscriptionId())
                .map(ChainFacts::account)
                .collect(Collectors.toCollection(HashSet::new))
                .flatMap(taken -> links.lockAwaiting(report.txHash())
                        .collectList()
                        .flatMapMany(Flux::fromIterable)
                        .concatMap(link -> plans.findAny(link.planId())
                                .filter(plan -> matches(report, event, link, plan) && taken.add(account(link)))
                                .flatMap(plan -> activate(report, event, link, plan, now)))
                        .count())
                .map(count -> count > 0 ? LogOutcome.APPLIED : LogOutcome.UNMATCHED);
    }

    private static String account(SubscriptionLink link) {
        return link.merchantId() + "/" + link.mode().wireName();
    }

    /**
     * The log is the link's subscription: the plan's on-chain id and network, the link's wallet as the subscriber,
     * and the {@code ref} that names the link's subscriber. That {@code ref} is the proof: the wallet put it in its own
     * {@code subscribe}, and only whoever holds the subscriber id (the invitation, or the self-service sign-up's
     * {@code prepare}) knows it, so reporting another wallet's transaction never binds it. A zero {@code ref} names
     * nobody and is never bound.
     */
    private static boolean matches(ChainLog report, Subscribed event, SubscriptionLink link, PlanView plan) {
        String ref = Invitation.ref(link.subscriberId());
        return plan.network().chainId() == report.chainId()
                && plan.plan().planId().equalsIgnoreCase(event.planId())
                && Addresses.same(link.walletAddress(), event.subscriber())
                && event.ref().equalsIgnoreCase(ref);
    }

    private Mono<Boolean> activate(
            ChainLog report, Subscribed event, SubscriptionLink link, PlanView plan, Instant now) {
        boolean trial = plan.plan().terms().trialPeriod() > 0;
        return subscribers.lockAny(link.subscriberId()).flatMap(subscriber -> {
            boolean billed = subscriber.status() != SubscriberStatus.CANCELLED;
            Transition<SubscriptionLink> move = link.subscribed(
                    event.subscriptionId(),
                    report.blockTime(),
                    trial ? event.firstDue() : null,
                    event.firstDue(),
                    event.endsAt(),
                    billed,
                    now);
            Transition<Subscriber> enrolled =
                    billed ? subscriber.moveTo(SubscriberStatus.ACTIVE, now) : Transition.unchanged(subscriber);
            return changes.link(move, link, enrolled, plan, null, now)
                    // Logs of this subscription that came before the link knew it (rare: the enrolment came late).
                    .thenMany(book.unmatchedOf(event.subscriptionId()))
                    .concatMap(later -> ContractEvent.decode(later)
                            .map(decoded ->
                                    apply(later, decoded, now).flatMap(result -> book.settle(later, result, now)))
                            .orElse(Mono.empty()))
                    .then(Mono.just(true));
        });
    }

    private interface LinkMove {
        Mono<LogOutcome> apply(SubscriptionLink link, PlanView plan);
    }

    /** Applies a subscription's event to each link that holds it (one per merchant account). */
    private Mono<LogOutcome> each(String subscriptionId, LinkMove move) {
        return links.lockOnChain(subscriptionId)
                .collectList()
                .flatMapMany(Flux::fromIterable)
                .concatMap(link -> plans.findAny(link.planId()).flatMap(plan -> move.apply(link, plan)))
                .collectList()
                .map(outcomes -> outcomes.isEmpty()
                        ? LogOutcome.UNMATCHED
                        : outcomes.contains(LogOutcome.APPLIED) ? LogOutcome.APPLIED : outcomes.get(0));
    }

    private Mono<LogOutcome> charged(
            ChainLog report, Charged event, SubscriptionLink link, PlanView plan, Instant now) {
        Instant starts = event.periodStart();
        Instant ends = later(starts, plan.plan().terms().interval());
        if (starts == null || ends == null) {
            log.warn(
                    "Charged log {}#{} has a period outside the dates stored; not recorded",
                    report.txHash(),
                    report.logIndex());
            return Mono.just(LogOutcome.IGNORED);
        }
        boolean afterStop = !link.active() || (link.expiresAt() != null && !starts.isBefore(link.expiresAt()));
        return links.periodPaid(link.id(), starts).flatMap(paid -> {
            if (paid) {
                return Mono.just(LogOutcome.DUPLICATE);
            }
            if (afterStop) {
                log.warn(
                        "Charged log {}#{} collected a period of stopped link {} (subscription {})",
                        report.txHash(),
                        report.logIndex(),
                        link.id(),
                        event.subscriptionId());
                collectedAfterStop(report.chainId()).increment();
            }
            SubscriptionPayment payment = new SubscriptionPayment(
                    UUID.randomUUID(),
                    link.merchantId(),
                    link.mode(),
                    link.id(),
                    plan.network().id(),
                    report.txHash(),
                    report.blockNumber(),
                    report.blockHash(),
                    report.logIndex(),
                    report.confirmations(),
                    event.amount(),
                    event.subscriber(),
                    "confirmed",
                    report.blockTime(),
                    starts,
                    ends,
                    ends,
                    afterStop,
                    now,
                    now);
            return links.insert(payment)
                    .then(subscribers.findAny(link.subscriberId()))
                    .flatMap(subscriber -> changes.link(
                            link.charged(event.paidPeriods(), ends, now),
                            link,
                            Transition.unchanged(subscriber),
                            plan,
                            SubscriptionChanges.Payment.collected(event.amount(), report.txHash(), afterStop),
                            now))
                    .thenReturn(LogOutcome.APPLIED);
        });
    }

    private Mono<LogOutcome> missed(ChainLog report, Missed event, SubscriptionLink link, PlanView plan, Instant now) {
        BigInteger perPeriod = plan.plan().billedAmount();
        BigInteger charge = perPeriod.multiply(BigInteger.valueOf(event.periods()));
        long interval = plan.plan().terms().interval();
        Instant nextDue = event.periods() > 0 && interval > Storable.LATEST.getEpochSecond() / event.periods()
                ? null
                : later(event.firstPeriodStart(), interval * event.periods());
        return subscribers
                .findAny(link.subscriberId())
                .flatMap(subscriber -> changes.link(
                        link.missed(charge, event.missedInRow(), nextDue, now),
                        link,
                        Transition.unchanged(subscriber),
                        plan,
                        SubscriptionChanges.Payment.missed(charge, report.txHash(), event.periods()),
                        now))
                .thenReturn(LogOutcome.APPLIED);
    }

    private Mono<LogOutcome> ended(SubscriptionLink link, PlanView plan, Instant now) {
        return subscribers
                .findAny(link.subscriberId())
                .flatMap(subscriber ->
                        changes.link(link.ended(now), link, Transition.unchanged(subscriber), plan, null, now))
                .thenReturn(LogOutcome.APPLIED);
    }

    /**
     * A confirmed log taken away by a reorganisation deeper than the confirmations: a payment it recorded no longer
     * counts, its link counts one paid period fewer with that period due again, and
     * {@code subscription.payment.failed} (reason {@code reorganised}) says so.
     */
    private Mono<Void> removed(ChainLog report, Instant now) {
        log.warn(
                "Chain {}: confirmed log {}#{} was removed by a reorganisation",
                report.chainId(),
                report.txHash(),
                report.logIndex());
        return book.markRemoved(report, now)
                .thenMany(links.paymentsRemoved(report.txHash(), report.logIndex(), now))
                .concatMap(payment -> links.lockAny(payment.linkId())
                        .flatMap(link -> plans.findAny(link.planId())
                                .flatMap(plan -> subscribers
                                        .findAny(link.subscriberId())
                                        .flatMap(subscriber -> changes.link(
                                                link.reorganised(payment.startsAt(), now),
                                                link,
                                                Transition.unchanged(subscriber),
                                                plan,
                                                SubscriptionChanges.Payment.reorganised(
                                                        payment.amount(), payment.txHash()),
                                                now)))))
                .then();
    }

    /** {@code seconds} after {@code start}, or null past what dates can hold. */
    private static Instant later(Instant start, long seconds) {
        if (start == null || seconds < 0 || seconds > Storable.LATEST.getEpochSecond()) {
            return null;
        }
        Instant end = start.plusSeconds(seconds);
        return Storable.inRange(end) ? end : null;
    }
}
