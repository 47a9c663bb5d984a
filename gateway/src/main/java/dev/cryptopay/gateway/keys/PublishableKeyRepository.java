package dev.cryptopay.gateway.keys;

import dev.cryptopay.auth.Mode;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** SQL for publishable keys; shared by the web application and the command line like {@link KeyRepository}. */
public class PublishableKeyRepository {

    private static final String COLUMNS =
            "p.id, p.key_value, p.merchant_id, p.mode, p.status, p.created_at, p.last_used_at, p.revoked_at";

    private final DatabaseClient db;

    public PublishableKeyRepository(DatabaseClient db) {
        this.db = db;
    }

    public Mono<StoredPublishableKey> insert(StoredPublishableKey key) {
        return db.sql("INSERT INTO publishable_key (id, key_value, merchant_id, mode, status, created_at) "
                        + "VALUES (:id, :value, :merchantId, :mode, :status, :createdAt)")
                .bind("id", key.id())
                .bind("value", key.value())
                .bind("merchantId", key.merchantId())
                .bind("mode", key.mode().wireName())
                .bind("status", key.status().wireName())
                .bind("createdAt", KeyRows.toDb(key.createdAt()))
                .fetch()
                .rowsUpdated()
                .thenReturn(key);
    }

    /** The key with this value together with its merchant, or empty. */
    public Mono<WithMerchant> findByValue(String value) {
        return db.sql("SELECT " + COLUMNS + KeyRows.MERCHANT_COLUMNS
                        + "FROM publishable_key p JOIN merchant m ON m.id = p.merchant_id WHERE p.key_value = :value")
                .bind("value", value)
                .map(row -> new WithMerchant(key(row), KeyRows.joinedMerchant(row)))
                .one();
    }

    public Flux<StoredPublishableKey> findKeysOfMerchant(UUID merchantId) {
        return db.sql("SELECT " + COLUMNS + " FROM publishable_key p WHERE p.merchant_id = :merchantId "
                        + "ORDER BY p.created_at, p.id")
                .bind("merchantId", merchantId)
                .map(PublishableKeyRepository::key)
                .all();
    }

    /** The merchant's publishable keys of one mode, newest first (issued by the operator, so few). */
    public Flux<StoredPublishableKey> findKeysOfMerchant(UUID merchantId, Mode mode) {
        return db.sql("SELECT " + COLUMNS + " FROM publishable_key p WHERE p.merchant_id = :merchantId "
                        + "AND p.mode = :mode ORDER BY p.created_at DESC, p.id DESC")
                .bind("merchantId", merchantId)
                .bind("mode", mode.wireName())
                .map(PublishableKeyRepository::key)
                .all();
    }

    /** Whether the merchant holds an active publishable key of the mode. */
    public Mono<Boolean> hasActive(UUID merchantId, Mode mode) {
        return db.sql("SELECT EXISTS (SELECT 1 FROM publishable_key WHERE merchant_id = :merchantId AND mode = :mode "
                        + "AND status = 'active') AS found")
                .bind("merchantId", merchantId)
                .bind("mode", mode.wireName())
                .map(row -> Boolean.TRUE.equals(row.get("found", Boolean.class)))
                .one();
    }

    /** Revokes the merchant's own key of one mode, named by its id; empty when the merchant has no such key. */
    public Mono<StoredPublishableKey> revokeOwn(UUID id, UUID merchantId, Mode mode, Instant now) {
        return db.sql("UPDATE publishable_key p SET status = 'revoked', revoked_at = COALESCE(revoked_at, :now) "
                        + "WHERE id = :id AND merchant_id = :merchantId AND mode = :mode RETURNING " + COLUMNS)
                .bind("now", KeyRows.toDb(now))
                .bind("id", id)
                .bind("merchantId", merchantId)
                .bind("mode", mode.wireName())
                .map(PublishableKeyRepository::key)
                .one();
    }

    /** Marks the key revoked (keeping the first revocation time); empty when no such key exists. */
    public Mono<StoredPublishableKey> revoke(String value, Instant now) {
        return db.sql("UPDATE publishable_key p SET status = 'revoked', revoked_at = COALESCE(revoked_at, :now) "
                        + "WHERE key_value = :value RETURNING " + COLUMNS)
                .bind("now", KeyRows.toDb(now))
                .bind("value", value)
                .map(PublishableKeyRepository::key)
                .one();
    }

    /** Writes collected "last used" times; never moves one backwards. */
    public Mono<Long> recordLastUsed(Map<UUID, Instant> lastUsed) {
        return KeyRows.recordLastUsed(db, "publishable_key", lastUsed);
    }

    /** A publishable key joined with its merchant, as the authentication path needs both. */
    public record WithMerchant(StoredPublishableKey key, Merchant merchant) {}

    private static StoredPublishableKey key(Readable row) {
        return new StoredPublishableKey(
                row.get("id", UUID.class),
                row.get("key_value", String.class),
                row.get("merchant_id", UUID.class),
                Mode.fromWireName(row.get("mode", String.class)),
                KeyStatus.fromWireName(row.get("status", String.class)),
                KeyRows.instant(row, "created_at"),
                KeyRows.instant(row, "last_used_at"),
                KeyRows.instant(row, "revoked_at"));
    }
}
