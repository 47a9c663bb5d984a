package dev.cryptopay.subscriptions.subscriber;

import dev.cryptopay.subscriptions.link.LinkRepository;
import dev.cryptopay.subscriptions.plan.PlanService;
import java.time.Instant;
import java.util.Optional;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Stores a change of a subscriber, whoever asked for it: the row, the end of billing when it is cancelled, and the
 * event its status move emits. Call inside the transaction that locked the subscriber.
 */
@Component
public class SubscriberChanges {

    private final SubscriberRepository subscribers;
    private final LinkRepository links;
    private final PlanService plans;
    private final SubscriberEvents events;

    public SubscriberChanges(
            SubscriberRepository subscribers, LinkRepository links, PlanService plans, SubscriberEvents events) {
        this.subscribers = subscribers;
        this.links = links;
        this.plans = plans;
        this.events = events;
    }

    /** Saves {@code change} of {@code before}; answers the subscriber as it now is. */
    public Mono<Subscriber> save(Subscriber before, Subscriber.Change change, Instant now) {
        Subscriber after = change.subscriber();
        if (after == before) {
            return Mono.just(before);
        }
        Mono<Void> stopBilling =
                after.status() == SubscriberStatus.CANCELLED ? links.deactivateOf(after.id(), now) : Mono.empty();
        Mono<Void> event = change.event()
                .map(type -> plans.findAny(after.planId())
                        .zipWith(links.ofSubscriber(after.id())
                                .map(link -> Optional.of(link.id()))
                                .defaultIfEmpty(Optional.empty()))
                        .flatMap(loaded -> events.append(
                                type, after, loaded.getT1(), loaded.getT2().orElse(null), now)))
                .orElse(Mono.empty());
        return subscribers.update(after).then(stopBilling).then(event).thenReturn(after);
    }
}
