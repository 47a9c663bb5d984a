package dev.cryptopay.gateway.keys;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Collects "key last used" times in memory and writes them in batches, so authenticating a request never waits for
 * (or causes) a database write. Times may lag by up to one flush interval, and a crash loses at most one interval.
 */
public class LastUsedRecorder implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(LastUsedRecorder.class);

    private final KeyRepository repository;
    private final Duration interval;
    private final Map<UUID, Instant> pending = new ConcurrentHashMap<>();
    private volatile Disposable loop;

    public LastUsedRecorder(KeyRepository repository, Duration interval) {
        this.repository = repository;
        this.interval = interval;
    }

    /** Notes a use; O(1), no I/O. */
    public void touch(UUID keyId, Instant at) {
        pending.merge(keyId, at, (a, b) -> a.isAfter(b) ? a : b);
    }

    /** Writes everything collected so far; entries that fail to write are kept for the next round. */
    public Mono<Long> flush() {
        return Mono.defer(() -> {
            Map<UUID, Instant> batch = new HashMap<>();
            for (UUID id : pending.keySet()) {
                Instant at = pending.remove(id);
                if (at != null) {
                    batch.put(id, at);
                }
            }
            if (batch.isEmpty()) {
                return Mono.just(0L);
            }
            return repository.recordLastUsed(batch).doOnError(e -> batch.forEach(this::touch));
        });
    }

    @Override
    public void start() {
        loop = Flux.interval(interval, interval)
                .onBackpressureDrop()
                .concatMap(tick -> flush().onErrorResume(e -> {
                    log.warn("Could not record API key last-used times, will retry: {}", e.toString());
                    return Mono.empty();
                }))
                .subscribe();
    }

    @Override
    public void stop() {
        Disposable running = loop;
        if (running != null) {
            running.dispose();
            loop = null;
        }
        try {
            flush().block(Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            log.warn("Could not record API key last-used times on shutdown: {}", e.toString());
        }
    }

    @Override
    public boolean isRunning() {
        return loop != null;
    }

    /** Stops before the database connection pool closes. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 100;
    }
}
