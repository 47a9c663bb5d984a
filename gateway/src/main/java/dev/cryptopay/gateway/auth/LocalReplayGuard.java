package dev.cryptopay.gateway.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * Replay guard of one instance: a bounded map that forgets entries after the replay window. When more than
 * {@code maxEntries} signatures arrive within one window the oldest are forgotten early; with several instances
 * behind a load balancer, use the Redis guard instead.
 */
public class LocalReplayGuard implements ReplayGuard {

    private final Cache<String, Boolean> seen;

    public LocalReplayGuard(Duration window, long maxEntries) {
        this.seen = Caffeine.newBuilder()
                .expireAfterWrite(window)
                .maximumSize(maxEntries)
                .build();
    }

    @Override
    public Mono<Boolean> firstUse(String fingerprint) {
        return Mono.fromSupplier(() -> seen.asMap().putIfAbsent(fingerprint, Boolean.TRUE) == null);
    }
}
