package dev.cryptopay.gateway.keys;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.gateway.keys.KeyRepository.RevokedKey;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.service.outbox.DomainEvent;
import dev.cryptopay.service.outbox.OutboxWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Every way a key is revoked, by its merchant or by the operator, each with its {@code account.key.revoked} event in
 * the same transaction (the outbox relays it to webhook-service): a merchant hears of a revocation it did not make
 * itself. Revoking a key revoked already changes nothing and announces nothing again.
 */
public class KeyRevocations {

    /** Aggregate types of the events. */
    static final String API_KEY = "api_key";

    static final String PUBLISHABLE_KEY = "publishable_key";

    private final KeyRepository apiKeys;
    private final PublishableKeyRepository publishableKeys;
    private final OutboxWriter outbox;
    private final TransactionalOperator tx;
    private final String topic;

    /** @param topic the gateway's event topic ({@code gateway.events}) */
    public KeyRevocations(
            KeyRepository apiKeys,
            PublishableKeyRepository publishableKeys,
            OutboxWriter outbox,
            TransactionalOperator tx,
            String topic) {
        this.apiKeys = apiKeys;
        this.publishableKeys = publishableKeys;
        this.outbox = outbox;
        this.tx = tx;
        this.topic = topic;
    }

    /**
     * The {@code data} of {@code account.key.revoked} (every member present, null without a value).
     *
     * @param keyId          the revoked key's id, as the key list shows it
     * @param kind           {@code api_key} or {@code publishable_key}
     * @param displayPrefix  its first 12 characters ({@code mk_live_ABCD})
     * @param scopes         an API key's scopes; empty for a publishable key
     * @param revokedAt      when
     * @param revokedByKeyId the API key that revoked it; null when the operator did
     */
    record KeyRevokedData(
            String keyId,
            String kind,
            String displayPrefix,
            List<String> scopes,
            Instant revokedAt,
            String revokedByKeyId) {}

    /** The merchant's own API key of one mode, revoked with the key {@code by}; empty when there is none. */
    public Mono<RevokedKey> apiKey(UUID id, UUID merchantId, Mode mode, Instant at, UUID by) {
        Instant now = stored(at);
        return tx.transactional(apiKeys.revokeOwn(id, merchantId, mode, now)
                .flatMap(revoked -> announced(revoked.key(), now, by).thenReturn(revoked)));
    }

    /** The merchant's own publishable key of one mode, revoked with the key {@code by}; empty when there is none. */
    public Mono<StoredPublishableKey> publishableKey(UUID id, UUID merchantId, Mode mode, Instant at, UUID by) {
        Instant now = stored(at);
        return tx.transactional(publishableKeys
                .revokeOwn(id, merchantId, mode, now)
                .flatMap(revoked -> announced(revoked, now, by).thenReturn(revoked)));
    }

    /** An API key revoked by the operator, found by its hash; empty when there is none. */
    public Mono<StoredApiKey> apiKeyByOperator(String keySha256, Instant at) {
        Instant now = stored(at);
        return tx.transactional(apiKeys.revoke(keySha256, now)
                .flatMap(revoked -> announced(revoked, now, null).thenReturn(revoked)));
    }

    /** A publishable key revoked by the operator; empty when there is none. */
    public Mono<StoredPublishableKey> publishableKeyByOperator(String value, Instant at) {
        Instant now = stored(at);
        return tx.transactional(publishableKeys
                .revoke(value, now)
                .flatMap(revoked -> announced(revoked, now, null).thenReturn(revoked)));
    }

    private Mono<Void> announced(StoredApiKey key, Instant now, UUID by) {
        return newly(key.revokedAt(), now)
                ? append(key.merchantId(), key.mode(), API_KEY, key.id(), key.displayPrefix(), scopes(key), now, by)
                : Mono.empty();
    }

    private Mono<Void> announced(StoredPublishableKey key, Instant now, UUID by) {
        return newly(key.revokedAt(), now)
                ? append(
                        key.merchantId(),
                        key.mode(),
                        PUBLISHABLE_KEY,
                        key.id(),
                        key.displayPrefix(),
                        List.of(),
                        now,
                        by)
                : Mono.empty();
    }

    /** A time as the database keeps it (microseconds), so it compares equal to what the revocation stored. */
    private static Instant stored(Instant at) {
        return at.truncatedTo(ChronoUnit.MICROS);
    }

    /** The revocation time is kept from the first revocation, so only a key revoked by this call has {@code now}. */
    private static boolean newly(Instant revokedAt, Instant now) {
        return now.equals(revokedAt);
    }

    private static List<String> scopes(StoredApiKey key) {
        return KeyScope.wireNames(key.scopes());
    }

    private Mono<Void> append(
            UUID merchantId,
            Mode mode,
            String kind,
            UUID keyId,
            String displayPrefix,
            List<String> scopes,
            Instant now,
            UUID by) {
        return outbox.append(
                topic,
                DomainEvent.of(
                        EventType.ACCOUNT_KEY_REVOKED,
                        now,
                        merchantId,
                        mode,
                        kind,
                        keyId.toString(),
                        new KeyRevokedData(
                                keyId.toString(),
                                kind,
                                displayPrefix,
                                scopes,
                                now,
                                by == null ? null : by.toString())));
    }
}
