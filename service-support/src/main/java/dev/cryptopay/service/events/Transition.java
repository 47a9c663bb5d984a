package dev.cryptopay.service.events;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What an aggregate's move answers, for every aggregate of every service: the state it moved to and the events the
 * move caused, in order. The aggregate picks the events; the caller stores {@code state} and appends {@code events}
 * to the outbox in one transaction and never adds events of its own.
 *
 * <pre>{@code
 * Transition<PaymentLink> cancelled = link.cancel(now);   // state: the cancelled link; events: none
 * Transition<Subscriber> moved = subscriber.update(patch, now); // events: [subscription.cancelled] when it cancels
 * }</pre>
 *
 * @param state   the aggregate after the move (the same instance when nothing changed)
 * @param events  the event types the move emits; empty when it emits none
 * @param changed whether the state differs from before, so the row must be written
 * @param <T>     the aggregate
 */
public record Transition<T>(T state, List<EventType> events, boolean changed) {

    public Transition {
        events = List.copyOf(events);
    }

    /** Nothing moved: the row stays as it is and no event is emitted. */
    public static <T> Transition<T> unchanged(T state) {
        return new Transition<>(state, List.of(), false);
    }

    /** The aggregate moved to {@code state}, emitting {@code events} (none is fine). */
    public static <T> Transition<T> to(T state, EventType... events) {
        return new Transition<>(state, List.of(events), true);
    }

    /** Whether the move emits at least one event. */
    public boolean emits() {
        return !events.isEmpty();
    }

    /** Whether the move emits {@code type}. */
    public boolean emits(EventType type) {
        return events.contains(type);
    }

    /** This move followed by {@code next} applied to its state: the last state, every event in order. */
    public Transition<T> then(Function<T, Transition<T>> next) {
        Transition<T> after = next.apply(state);
        List<EventType> all = new ArrayList<>(events);
        all.addAll(after.events());
        return new Transition<>(after.state(), all, changed || after.changed());
    }
}
