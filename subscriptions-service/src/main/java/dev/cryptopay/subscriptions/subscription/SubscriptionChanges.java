package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Transition;
import dev.cryptopay.subscriptions.plan.PlanService;
import dev.cryptopay.subscriptions.plan.PlanView;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The one way a subscriber's or a link's move is stored, whoever caused it: the row, then the events the move
 * emitted, in the transaction of the caller (which locked the rows). It also keeps the rule that binds the two: a
 * subscriber and its link stop together (a cancelled subscriber's link is no longer billed; a link that stops cancels
 * its subscriber) and restart together (a link restarted makes its subscriber active).
 */
@Component
public class SubscriptionChanges {

    private final SubscriberRepository subscribers;
    private final LinkRepository links;
    private final PlanService plans;
    private final SubscriberEvents events;

    public SubscriptionChanges(
            SubscriberRepository subscribers, LinkRepository links, PlanService plans, SubscriberEvents events) {
        this.subscribers = subscribers;
        this.links = links;
        this.plans = plans;
        this.events = events;
    }

    /**
     * What a link's events are about: the amount (default one period of the plan), the transaction, if any, how many
     * periods a miss counts (null when the event is not about missed periods), whether a collected period was taken
     * while the link was stopped, and why a payment failed ({@link #MISSED}, {@link #REORGANISED}; null otherwise).
     */
    public record Payment(BigInteger amount, String txHash, Long periods, boolean collectedAfterStop, String failure) {

        /** {@code subscription.payment.failed}'s reason: periods the contract counted as missed. */
        public static final String MISSED = "missed";

        /** {@code subscription.payment.failed}'s reason: a reorganisation took a confirmed collection away. */
        public static final String REORGANISED = "reorganised";

        /** One period of the plan, no transaction. */
        public static Payment period(PlanView plan) {
            return new Payment(plan.plan().billedAmount(), null, null, false, null);
        }

        public static Payment collected(BigInteger amount, String txHash, boolean afterStop) {
            return new Payment(amount, txHash, null, afterStop, null);
        }

        public static Payment missed(BigInteger amount, String txHash, long periods) {
            return new Payment(amount, txHash, periods, false, MISSED);
        }

        public static Payment reorganised(BigInteger amount, String txHash) {
            return new Payment(amount, txHash, null, false, REORGANISED);
        }
    }

    /** Stores a subscriber's move and its events; answers the subscriber as it now is. */
    public Mono<Subscriber> subscriber(Transition<Subscriber> move, Instant now) {
        Subscriber after = move.state();
        if (!move.changed()) {
            return Mono.just(after);
        }
        return subscribers
                .update(after)
                .then(links.ofSubscriber(after.id()).map(Optional::of).defaultIfEmpty(Optional.empty()))
                .flatMap(link -> {
                    Mono<Void> stop = link.filter(ignored -> after.status() == SubscriberStatus.CANCELLED)
                            .map(billed -> storeLink(billed.stop(now)))
                            .orElse(Mono.empty());
                    Mono<Void> announce = move.emits()
                            ? plans.findAny(after.planId())
                                    .flatMap(plan -> append(move.events(), after, plan, link.orElse(null), null, now))
                            : Mono.empty();
                    return stop.then(announce);
                })
                .thenReturn(after);
    }

    /**
     * Stores a link's move and its events, then its subscriber's move: the one given (e.g. enrolment's, or new
     * details), followed by the status the link's move implies. The link's events show the subscriber after the
     * given move.
     *
     * @param before the link the move was made on; null for a new link (enrolment), whose row is inserted
     * @param payment what the link's events are about; null for one period of the plan and no transaction
     */
    public Mono<SubscriptionLink> link(
            Transition<SubscriptionLink> move,
            SubscriptionLink before,
            Transition<Subscriber> subscriberMove,
            PlanView plan,
            Payment payment,
            Instant now) {
        SubscriptionLink after = move.state();
        Mono<Void> store = before == null ? links.insert(after) : storeLink(move);
        if (before != null && !Objects.equals(before.expiresAt(), after.expiresAt())) {
            // A new end gets its own expiring notice.
            store = store.then(links.resetExpiryNotice(after.id()));
        }
        Mono<Void> announce = append(move.events(), subscriberMove.state(), plan, after, payment, now);
        Transition<Subscriber> follows =
                subscriberMove.then(subscriber -> statusFollowing(before, after, subscriber, now));
        return store.then(announce).then(subscriber(follows, now)).thenReturn(after);
    }

    /** Stops or restarts the subscriber with its link. */
    private static Transition<Subscriber> statusFollowing(
            SubscriptionLink before, SubscriptionLink after, Subscriber subscriber, Instant now) {
        boolean stopped = before != null && before.active() && !after.active();
        boolean restarted = before != null && !before.active() && after.active();
        if (stopped && subscriber.status() != SubscriberStatus.CANCELLED) {
            return subscriber.moveTo(SubscriberStatus.CANCELLED, now);
        }
        return restarted ? subscriber.moveTo(SubscriberStatus.ACTIVE, now) : Transition.unchanged(subscriber);
    }

    private Mono<Void> storeLink(Transition<SubscriptionLink> move) {
        return move.changed() ? links.update(move.state()) : Mono.empty();
    }

    private Mono<Void> append(
            List<EventType> types,
            Subscriber subscriber,
            PlanView plan,
            SubscriptionLink link,
            Payment payment,
            Instant now) {
        Payment about = payment == null ? Payment.period(plan) : payment;
        return Flux.fromIterable(types)
                .concatMap(type -> events.append(type, subscriber, plan, link, about, now))
                .then();
    }
}
