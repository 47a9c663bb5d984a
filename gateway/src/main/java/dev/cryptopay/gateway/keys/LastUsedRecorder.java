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
    private final PublishableKeyRepository publishableKeys;
    private final Duration interval;
    private final Map<UsedKey, Instant> pending = new ConcurrentHashMap<>();
    private volatile Disposable loop;

    public LastUsedRecorder(KeyRepository repository, PublishableKeyRepository publishableKeys, Duration interval) {
        this.repository = repository;
        this.publishableKeys = publishableKeys;
        this.interval = interval;
    }

    /** A key as remembered until the next flush: its kind says which table it lives in. */
    private record UsedKey(KeyKind kind, UUID id) {}

    /** Notes a use of an API key or publishable key; O(1), no I/O. */
    public void touch(KeyKind kind, UUID keyId, Instant at) {
        touch(new UsedKey(kind, keyId), at);
    }

    private void touch(UsedKey key, Instant at) {
        pending.merge(key, at, (a, b) -> a.isAfter(b) ? a : b);
    }

    /** Writes everything collected so far; entries that fail to write are kept for the next round. */
    public Mono<Long> flush() {
        return Mono.defer(() -> {
            Map<UsedKey, Instant> batch = new HashMap<>();
            for (UsedKey key : pending.keySet()) {
                Instant at = pending.remove(key);
                if (at != null) {
                    batch.put(key, at);
                }
            }
            if (batch.isEmpty()) {
                return Mono.just(0L);
            }
            // One table after the other (never zipped, so a failure cannot cancel the other's query mid-flight).
            return repository
                    .recordLastUsed(idsOf(batch, KeyKind.API_KEY))
                    .flatMap(apiKeys -> publishableKeys
                            .recordLastUsed(idsOf(batch, KeyKind.PUBLISHABLE_KEY))
                            .map(publishable -> apiKeys + publishable))
                    .doOnError(e -> batch.forEach(this::touch));
        });
    }

    private static Map<UUID, Instant> idsOf(Map<UsedKey, Instant> batch, KeyKind kind) {
        Map<UUID, Instant> ids = new HashMap<>();
        batch.forEach((key, at) -> {
            if (key.kind() == kind) {
                ids.put(key.id(), at);
            }
        });
        return ids;
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
