package dev.cryptopay.paymentlinks.paymentlink;

import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.events.Transition;
import java.time.Instant;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The one way a link's move is stored, whoever caused it (a merchant, the expiry sweeper, a chain watcher's report):
 * the row when the move changed it, then the events the move emitted, in the caller's transaction (which locked the
 * row).
 */
@Component
public class PaymentLinkChanges {

    private final PaymentLinkRepository links;
    private final PaymentLinkEvents events;

    public PaymentLinkChanges(PaymentLinkRepository links, PaymentLinkEvents events) {
        this.links = links;
        this.events = events;
    }

    /**
     * The transaction a move's events are about.
     *
     * @param late the transaction arrived after the link stopped taking payments (the events say so)
     */
    public record Payment(String transactionHash, boolean late) {}

    /**
     * Stores the move and appends its events; answers the link as it now is.
     *
     * @param payment the transaction that caused the move; null when none did
     */
    public Mono<PaymentLink> save(Transition<PaymentLink> move, Payment payment, Instant now) {
        return store(move).then(events.append(move, payment, now)).thenReturn(move.state());
    }

    private Mono<Void> store(Transition<PaymentLink> move) {
        if (move.emits(EventType.PAYMENT_CREATED)) {
            // Only PaymentLink.create emits payment.created: that move is the link's first row.
            return links.insert(move.state());
        }
        return move.changed() ? links.updateState(move.state()) : Mono.empty();
    }
}
