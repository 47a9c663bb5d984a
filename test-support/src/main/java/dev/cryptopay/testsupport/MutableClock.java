package dev.cryptopay.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock tests move by hand, so time rules (expiry, windows, schedules) are tested without sleeping. */
public final class MutableClock extends Clock {

    private final AtomicReference<Instant> now;

    public MutableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    /** Starts at the current time, truncated to the microsecond (what PostgreSQL stores). */
    public static MutableClock startingNow() {
        return new MutableClock(Instant.ofEpochMilli(System.currentTimeMillis()));
    }

    public void advance(Duration by) {
        now.updateAndGet(current -> current.plus(by));
    }

    public void set(Instant instant) {
        now.set(instant);
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("MutableClock is always UTC");
    }
}
