package dev.cryptopay.paymentlinks.paymentlink;

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

    /** Inserts a new link ({@link PaymentLink#create}) and appends its events; answers the link. */
    public Mono<PaymentLink> create(Transition<PaymentLink> created, Instant now) {
        return links.insert(created.state())
                .then(events.append(created, null, now))
                .thenReturn(created.state());
    }

    /**
     * Stores a move of an existing link (when it changed the row) and appends its events; answers the link as it now
     * is.
     *
     * @param payment the transaction that caused the move; null when none did
     */
    public Mono<PaymentLink> save(Transition<PaymentLink> move, Payment payment, Instant now) {
        Mono<Void> store = move.changed() ? links.updateState(move.state()) : Mono.empty();
        return store.then(events.append(move, payment, now)).thenReturn(move.state());
    }
}
