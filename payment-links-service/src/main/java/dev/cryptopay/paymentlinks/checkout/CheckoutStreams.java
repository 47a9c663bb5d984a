package dev.cryptopay.paymentlinks.checkout;

import dev.cryptopay.paymentlinks.config.PaymentLinksProperties;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * Counts the event streams this instance keeps open, so a crowd of open checkouts cannot exhaust the instance (each
 * stream reads the database every poll interval). Beyond {@code payment-links.checkout.max-streams} a new stream is
 * refused; the browser then falls back to polling the status route.
 */
@Component
public class CheckoutStreams {

    private final int max;
    private final AtomicInteger open = new AtomicInteger();

    public CheckoutStreams(PaymentLinksProperties properties) {
        this.max = properties.checkout().maxStreams();
    }

    /** Takes a place for a new stream; false when every place is taken. Each true must be followed by one close. */
    boolean tryOpen() {
        while (true) {
            int current = open.get();
            if (current >= max) {
                return false;
            }
            if (open.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    void close() {
        open.decrementAndGet();
    }

    /** How many streams are open now. */
    public int open() {
        return open.get();
    }

    /** The most streams this instance keeps open. */
    public int max() {
        return max;
    }
}
