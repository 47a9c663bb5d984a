package dev.cryptopay.service.idempotency;

import dev.cryptopay.service.background.BackgroundLoop;
import java.time.Clock;
import java.time.Duration;
import reactor.core.publisher.Mono;

/** Forgets Idempotency-Keys past their retention, every {@code idempotency.purge-interval}; safe on several instances. */
public class IdempotencyPurge extends BackgroundLoop {

    private final IdempotencyStore store;
    private final IdempotencyProperties properties;
    private final Clock clock;

    public IdempotencyPurge(IdempotencyStore store, IdempotencyProperties properties, Clock clock) {
        this.store = store;
        this.properties = properties;
        this.clock = clock;
    }

    @Override
    protected Mono<Duration> runOnce() {
        return store.purge(clock.instant()).thenReturn(properties.purgeInterval());
    }

    @Override
    protected Duration delayAfterFailure() {
        return properties.purgeInterval();
    }
}
