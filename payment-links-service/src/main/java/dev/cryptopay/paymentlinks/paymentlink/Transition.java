package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.service.events.EventType;
import java.util.List;

/**
 * The state a link moved to and the event types the move caused (empty when nothing changed).
 *
 * @param late the events are about a payment that arrived after the link stopped taking payments
 */
public record Transition(PaymentLink link, List<EventType> events, boolean late) {

    public Transition(PaymentLink link, List<EventType> events) {
        this(link, events, false);
    }

    static Transition unchanged(PaymentLink link) {
        return new Transition(link, List.of());
    }

    public boolean changed() {
        return !events.isEmpty();
    }
}
