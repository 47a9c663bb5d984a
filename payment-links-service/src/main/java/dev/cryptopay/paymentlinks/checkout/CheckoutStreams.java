package dev.cryptopay.paymentlinks.checkout;

import dev.cryptopay.checkoutui.StreamSlots;
import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import org.springframework.stereotype.Component;

/**
 * Counts the event streams this instance keeps open, so a crowd of open checkouts cannot exhaust the instance (each
 * stream reads the database every poll interval). Beyond {@code payment-links.checkout.max-streams} a new stream is
 * refused; the browser then falls back to polling the status route.
 */
@Component
public class CheckoutStreams {

    private final StreamSlots slots;

    public CheckoutStreams(PaymentLinksProperties properties) {
        this.slots = new StreamSlots(properties.checkout().maxStreams());
    }

    /** Takes a place for a new stream; false when every place is taken. Each true must be followed by one close. */
    boolean tryOpen() {
        return slots.tryOpen();
    }

    void close() {
        slots.close();
    }

    /** How many streams are open now. */
    public int open() {
        return slots.open();
    }

    /** The most streams this instance keeps open. */
    public int max() {
        return slots.max();
    }
}
