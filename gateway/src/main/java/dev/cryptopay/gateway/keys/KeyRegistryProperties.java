package dev.cryptopay.gateway.keys;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Caching and bookkeeping of the API key registry.
 *
 * @param cacheTtl            how long a key lookup (found, unknown or revoked) is reused before the database is asked
 *                            again. This bounds how long a key revoked on another gateway instance keeps working.
 *                            Default 5 s.
 * @param cacheSize           most keys kept in the lookup cache. Default 10000.
 * @param lastUsedFlushInterval how often the "last used" times collected in memory are written to the database, so
 *                            the hot path never waits for a write. Default 30 s.
 * @param lookupTimeout       longest a request waits for a key lookup before it is answered 503
 *                            {@code key_registry_unavailable} with {@code Retry-After}; the lookup itself is not
 *                            cancelled (a query cancelled mid-flight can spoil its pooled connection). Default 3 s.
 */
@Validated
@ConfigurationProperties("gateway.keys")
public record KeyRegistryProperties(
        @NotNull Duration cacheTtl,
        @Positive int cacheSize,
        @NotNull Duration lastUsedFlushInterval,
        @NotNull Duration lookupTimeout) {

    public KeyRegistryProperties {
        cacheTtl = cacheTtl == null ? Duration.ofSeconds(5) : cacheTtl;
        cacheSize = cacheSize == 0 ? 10_000 : cacheSize;
        lastUsedFlushInterval = lastUsedFlushInterval == null ? Duration.ofSeconds(30) : lastUsedFlushInterval;
        lookupTimeout = lookupTimeout == null ? Duration.ofSeconds(3) : lookupTimeout;
    }
}
