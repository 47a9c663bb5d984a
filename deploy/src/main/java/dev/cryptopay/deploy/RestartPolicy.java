package dev.cryptopay.deploy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * When the launcher starts a crashed service again, and when it gives up on it ({@link ServiceSupervisor} applies it).
 * The back-off starts at {@link #firstBackOff} and doubles with each crash in a row up to {@link #maxBackOff}; a run
 * that stayed up for {@link #stableAfter} was a good one, so the crash that ends it starts the row again. The
 * {@link #maxCrashes}th crash within {@link #window} is not restarted: a service that keeps crashing needs a person,
 * not a loop. The numbers are parameters so tests need not wait 30 s; {@link #STANDARD} is what {@code ./run-local}
 * uses.
 *
 * @param exitGrace how long after an exit the supervisor looks at it: Ctrl-C in a terminal signals the services too,
 *     so they may exit a moment before the shutdown hook marks the stack closed
 */
record RestartPolicy(
        Duration firstBackOff,
        Duration maxBackOff,
        Duration stableAfter,
        int maxCrashes,
        Duration window,
        Duration exitGrace) {

    /** 1 s doubling to 30 s, reset by a run of 60 s; the 5th crash within 5 min is not restarted. */
    static final RestartPolicy STANDARD = new RestartPolicy(
            Duration.ofSeconds(1),
            Duration.ofSeconds(30),
            Duration.ofSeconds(60),
            5,
            Duration.ofMinutes(5),
            Duration.ofSeconds(1));

    RestartPolicy {
        if (maxCrashes < 1 || firstBackOff.isNegative() || maxBackOff.compareTo(firstBackOff) < 0) {
            throw new IllegalArgumentException(
                    "not a restart policy: " + firstBackOff + " to " + maxBackOff + ", " + maxCrashes + " crashes");
        }
    }

    /** A new service's crash history: none yet. */
    Crashes crashes() {
        return new Crashes();
    }

    /**
     * What to do about a crash.
     *
     * @param crash the how-manieth crash this is within the window, this one included
     * @param backOff how long to wait before the restart; null: give up
     */
    record Decision(int crash, Duration backOff) {
        boolean givesUp() {
            return backOff == null;
        }
    }

    /** The crashes of one service: the recent ones (for the give-up window) and how many in a row (the back-off). */
    final class Crashes {

        private final Deque<Instant> recent = new ArrayDeque<>();
        private int inARow;

        private Crashes() {}

        /**
         * Records a crash at {@code at} of a run that was up for {@code ranFor}, and decides.
         *
         * @return restart after the back-off, or give up when this is the {@link #maxCrashes}th within the window
         */
        synchronized Decision crashed(Duration ranFor, Instant at) {
            inARow = ranFor.compareTo(stableAfter) >= 0 ? 1 : inARow + 1;
            while (!recent.isEmpty() && !recent.peekFirst().isAfter(at.minus(window))) {
                recent.removeFirst();
            }
            recent.addLast(at);
            if (recent.size() >= maxCrashes) {
                return new Decision(recent.size(), null);
            }
            return new Decision(recent.size(), backOff(inARow));
        }

        /** firstBackOff × 2^(n-1), at most maxBackOff (and no overflow however long the row). */
        private Duration backOff(int n) {
            Duration backOff = firstBackOff;
            for (int i = 1; i < n && backOff.compareTo(maxBackOff) < 0; i++) {
                backOff = backOff.multipliedBy(2);
            }
            return backOff.compareTo(maxBackOff) > 0 ? maxBackOff : backOff;
        }
    }
}
