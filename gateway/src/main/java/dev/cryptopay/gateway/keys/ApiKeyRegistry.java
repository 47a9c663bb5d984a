package dev.cryptopay.gateway.keys;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.cryptopay.auth.apikey.ApiKey;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.auth.keys.VerificationKey;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.Failures;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Resolves presented API keys and publishable keys against the database, through a short-lived cache.
 *
 * <p>Every answer (found, revoked, unknown) is cached for {@code gateway.keys.cache-ttl}, so the database sees at most
 * one query per key and TTL per instance, and junk keys cannot hammer it. The TTL is also the staleness bound: a key
 * revoked through another gateway instance (they share the database) stops working here within one TTL; a key revoked
 * through this instance is dropped from its cache at once. Parsed public keys are cached separately by PEM because
 * parsing is far more expensive than the lookup.
 *
 * <p>When the database is briefly gone (a restart, a failover) a lookup that lost its connection is tried once more
 * (it is a read); a request never waits longer than {@code gateway.keys.lookup-timeout} and is then answered 503
 * {@code key_registry_unavailable} with {@code Retry-After}, never 500 and never a hang.
 */
public class ApiKeyRegistry {

    private static final Logger log = LoggerFactory.getLogger(ApiKeyRegistry.class);

    private final KeyRepository repository;
    private final PublishableKeyRepository publishableKeys;
    private final AsyncCache<String, Optional<ResolvedKey>> lookups;
    private final Cache<String, VerificationKey> parsedKeys;
    private final Duration lookupTimeout;

    public ApiKeyRegistry(
            KeyRepository repository, PublishableKeyRepository publishableKeys, KeyRegistryProperties properties) {
        this.repository = repository;
        this.publishableKeys = publishableKeys;
        this.lookups = Caffeine.newBuilder()
                .expireAfterWrite(properties.cacheTtl())
                .maximumSize(properties.cacheSize())
                .buildAsync();
        this.parsedKeys = Caffeine.newBuilder()
                .expireAfterAccess(Duration.ofHours(1))
                .maximumSize(properties.cacheSize())
                .build();
        this.lookupTimeout = properties.lookupTimeout();
    }

    /**
     * The key's registration, or empty when no key with this value exists. The caller checks the format first
     * ({@link ApiKey#isWellFormed}) and the status afterwards.
     */
    public Mono<Optional<ResolvedKey>> resolve(ApiKey apiKey) {
        return cached(apiKey.value(), () -> load(apiKey));
    }

    /** Like {@link #resolve(ApiKey)} for a publishable key; the result has no verification key. */
    public Mono<Optional<ResolvedKey>> resolve(PublishableKey publishableKey) {
        return cached(publishableKey.value(), () -> load(publishableKey));
    }

    /**
     * Both key kinds share the cache, keyed by the SHA-256 of the key (their prefixes differ, so they never collide),
     * so a revocation invalidates either kind the same way.
     */
    private Mono<Optional<ResolvedKey>> cached(String keyValue, Supplier<Mono<Optional<ResolvedKey>>> loader) {
        // A failed lookup is not cached (Caffeine drops failed futures), so the next request asks the database again.
        // The request waits on a stage derived from the cached future that carries the outcome as a value: when the
        // request stops waiting (timeout, client gone) only that stage is dropped, the query runs to its end, and a
        // failure that arrives later has no one to be reported to.
        return Mono.fromFuture(() -> lookups.get(
                                ApiKeyHash.of(keyValue),
                                (key, executor) -> loader.get()
                                        .retryWhen(Retry.max(1).filter(Failures::databaseUnavailable))
                                        .toFuture())
                        .handle((found, failure) ->
                                failure == null ? Mono.just(found) : Mono.<Optional<ResolvedKey>>error(failure)))
                .flatMap(Function.identity())
                .timeout(lookupTimeout)
                .onErrorMap(e -> !(e instanceof ApiException), e -> {
                    if (e instanceof TimeoutException) {
                        log.error("Key lookup gave no answer within {}", lookupTimeout);
                    } else {
                        log.error("Key lookup failed: {}", e.toString());
                    }
                    return new ApiException(
                            HttpStatus.SERVICE_UNAVAILABLE,
                            "key_registry_unavailable",
                            "Authentication is temporarily unavailable; retry shortly");
                });
    }

    /** Forgets a cached lookup, e.g. right after this instance revoked the key. */
    public void invalidate(String apiKeyValue) {
        lookups.synchronous().invalidate(ApiKeyHash.of(apiKeyValue));
    }

    /** Forgets a cached lookup by the key's SHA-256 (as stored), for a key revoked by its id. */
    public void invalidateHash(String keySha256) {
        lookups.synchronous().invalidate(keySha256);
    }

    private Mono<Optional<ResolvedKey>> load(ApiKey apiKey) {
        return repository
                .findByHash(ApiKeyHash.of(apiKey.value()))
                // A row whose mode disagrees with the key's prefix cannot come from our own writes; refuse it.
                .filter(found -> found.key().mode() == apiKey.mode())
                .map(found -> Optional.of(new ResolvedKey(
                        found.key().id(),
                        KeyKind.API_KEY,
                        found.key().displayPrefix(),
                        new MerchantIdentity(
                                found.key().merchantId(), found.key().mode()),
                        parsedKeys.get(found.key().publicKeyPem(), VerificationKey::parse),
                        found.merchant(),
                        found.key().status(),
                        found.key().scopes())))
                .defaultIfEmpty(Optional.empty());
    }

    private Mono<Optional<ResolvedKey>> load(PublishableKey publishableKey) {
        return publishableKeys
                .findByValue(publishableKey.value())
                .filter(found -> found.key().mode() == publishableKey.mode())
                .map(found -> Optional.of(new ResolvedKey(
                        found.key().id(),
                        KeyKind.PUBLISHABLE_KEY,
                        found.key().displayPrefix(),
                        new MerchantIdentity(
                                found.key().merchantId(), found.key().mode()),
                        null,
                        found.merchant(),
                        found.key().status(),
                        Set.of())))
                .defaultIfEmpty(Optional.empty());
    }
}
