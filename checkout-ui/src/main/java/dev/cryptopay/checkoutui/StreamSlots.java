package dev.cryptopay.checkoutui;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the live-status streams one instance keeps open, so a crowd of open pages cannot exhaust it (each stream
 * reads the database every poll interval). Beyond {@code max} a new stream is refused; the page then polls its status
 * route instead. {@link LiveStreams} holds one per page.
 */
final class StreamSlots {

    private final int max;
    private final AtomicInteger open = new AtomicInteger();

    StreamSlots(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be at least 1");
        }
        this.max = max;
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
    int open() {
        return open.get();
    }

    /** The most streams this instance keeps open. */
    int max() {
        return max;
    }
}
