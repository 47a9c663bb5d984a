package dev.cryptopay.paymentlinks.paymentlink;

import java.util.List;

/** The state a link moved to and the event types the move caused (empty when nothing changed). */
public record Transition(PaymentLink link, List<String> events) {

    static Transition unchanged(PaymentLink link) {
        return new Transition(link, List.of());
    }

    public boolean changed() {
        return !events.isEmpty();
    }
}
