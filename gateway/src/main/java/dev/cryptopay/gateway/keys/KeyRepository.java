package dev.cryptopay.gateway.keys;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.keys.KeyAlgorithm;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * SQL for merchants and API keys. Used by the web application and by the command line alike, so both see the same
 * rules (hash lookup, status transitions).
 */
public class KeyRepository {

    private static final String KEY_COLUMNS = "k.id, k.display_prefix, k.merchant_id, k.mode, k.algorithm, "
            + "k.public_key_pem, k.status, k.created_at, k.last_used_at, k.revoked_at, k.scopes";

    private final DatabaseClient db;

    public KeyRepository(DatabaseClient db) {
        this.db = db;
    }

    public Mono<Merchant> insertMerchant(Merchant merchant) {
        return db.sql("INSERT INTO merchant (id, name, email, created_at) VALUES (:id, :name, :email, :createdAt)")
                .bind("id", merchant.id())
                .bind("name", merchant.name())
                .bind("email", merchant.email())
                .bind("createdAt", KeyRows.toDb(merchant.createdAt()))
                .fetch()
                .rowsUpdated()
                .thenReturn(merchant);
    }

    public Mono<Merchant> findMerchant(UUID id) {
        return db.sql("SELECT id, name, email, created_at FROM merchant WHERE id = :id")
                .bind("id", id)
                .map(KeyRepository::merchant)
                .one();
    }

    public Mono<StoredApiKey> insertKey(StoredApiKey key, String keySha256) {
        return db.sql("INSERT INTO api_key (id, key_sha256, display_prefix, merchant_id, mode, algorithm, "
                        + "public_key_pem, status, created_at, scopes) VALUES (:id, :hash, :prefix, :merchantId, "
                        + ":mode, :algorithm, :pem, :status, :createdAt, :scopes)")
                .bind("id", key.id())
                .bind("hash", keySha256)
                .bind("prefix", key.displayPrefix())
                .bind("merchantId", key.merchantId())
                .bind("mode", key.mode().wireName())
                .bind("algorithm", key.algorithm().wireName())
                .bind("pem", key.publicKeyPem())
                .bind("status", key.status().wireName())
                .bind("createdAt", KeyRows.toDb(key.createdAt()))
                .bind("scopes", KeyScope.wireNames(key.scopes()).toArray(String[]::new))
                .fetch()
                .rowsUpdated()
                .thenReturn(key);
    }

    /** The key with this hash together with its merchant, or empty. */
    public Mono<KeyWithMerchant> findByHash(String keySha256) {
        return db.sql("SELECT " + KEY_COLUMNS + KeyRows.MERCHANT_COLUMNS
                        + "FROM api_key k JOIN merchant m ON m.id = k.merchant_id WHERE k.key_sha256 = :hash")
                .bind("hash", keySha256)
                .map(row -> new KeyWithMerchant(key(row), KeyRows.joinedMerchant(row)))
                .one();
    }

    public Flux<StoredApiKey> findKeysOfMerchant(UUID merchantId) {
        return db.sql("SELECT " + KEY_COLUMNS + " FROM api_key k WHERE k.merchant_id = :merchantId "
                        + "ORDER BY k.created_at, k.id")
                .bind("merchantId", merchantId)
                .map(KeyRepository::key)
                .all();
    }

    /** One page of the merchant's keys of one mode, newest first. */
    public Flux<StoredApiKey> findKeysOfMerchant(UUID merchantId, Mode mode, long offset, int limit) {
        return db.sql("SELECT " + KEY_COLUMNS + " FROM api_key k WHERE k.merchant_id = :merchantId AND k.mode = :mode "
                        + "ORDER BY k.created_at DESC, k.id DESC LIMIT :limit OFFSET :offset")
                .bind("merchantId", merchantId)
                .bind("mode", mode.wireName())
                .bind("limit", limit)
                .bind("offset", offset)
                .map(KeyRepository::key)
                .all();
    }

    /** How many keys of one mode the merchant has (revoked ones included). */
    public Mono<Long> countKeys(UUID merchantId, Mode mode) {
        return db.sql("SELECT count(*) AS n FROM api_key WHERE merchant_id = :merchantId AND mode = :mode")
                .bind("merchantId", merchantId)
                .bind("mode", mode.wireName())
                .map(row -> row.get("n", Long.class))
                .one();
    }

    /**
     * Revokes the merchant's own key of one mode, named by its id (keeping the first revocation time); empty when the
     * merchant has no such key in that mode. The answer carries the key's hash, so the lookup cache can drop it.
     */
    public Mono<RevokedKey> revokeOwn(UUID id, UUID merchantId, Mode mode, Instant now) {
        return db.sql("UPDATE api_key k SET status = 'revoked', revoked_at = COALESCE(revoked_at, :now) "
                        + "WHERE id = :id AND merchant_id = :merchantId AND mode = :mode RETURNING k.key_sha256, "
                        + KEY_COLUMNS)
                .bind("now", KeyRows.toDb(now))
                .bind("id", id)
                .bind("merchantId", merchantId)
                .bind("mode", mode.wireName())
                .map(row -> new RevokedKey(key(row), row.get("key_sha256", String.class)))
                .one();
    }

    /** The merchant's own key of one mode, by its id; empty when the merchant has no such key in that mode. */
    public Mono<StoredApiKey> findOwn(UUID id, UUID merchantId, Mode mode) {
        return db.sql("SELECT " + KEY_COLUMNS + " FROM api_key k WHERE k.id = :id AND k.merchant_id = :merchantId "
                        + "AND k.mode = :mode")
                .bind("id", id)
                .bind("merchantId", merchantId)
                .bind("mode", mode.wireName())
                .map(KeyRepository::key)
                .one();
    }

    /** A key just revoked, with the hash its lookups are cached under. */
    public record RevokedKey(StoredApiKey key, String keySha256) {}

    /** Marks the key revoked (keeping the first revocation time); empty when no key has this hash. */
    public Mono<StoredApiKey> revoke(String keySha256, Instant now) {
        return db.sql("UPDATE api_key k SET status = 'revoked', revoked_at = COALESCE(revoked_at, :now) "
                        + "WHERE key_sha256 = :hash RETURNING " + KEY_COLUMNS)
                .bind("now", KeyRows.toDb(now))
                .bind("hash", keySha256)
                .map(KeyRepository::key)
                .one();
    }

    /** Writes collected "last used" times; never moves one backwards. */
    public Mono<Long> recordLastUsed(Map<UUID, Instant> lastUsed) {
        return KeyRows.recordLastUsed(db, "api_key", lastUsed);
    }

    /** A key row joined with its merchant, as the authentication path needs both. */
    public record KeyWithMerchant(StoredApiKey key, Merchant merchant) {}

    private static Merchant merchant(Readable row) {
        return new Merchant(
                row.get("id", UUID.class),
                row.get("name", String.class),
                row.get("email", String.class),
                KeyRows.instant(row, "created_at"));
    }

    private static StoredApiKey key(Readable row) {
        return new StoredApiKey(
                row.get("id", UUID.class),
                row.get("display_prefix", String.class),
                row.get("merchant_id", UUID.class),
                Mode.fromWireName(row.get("mode", String.class)),
                KeyAlgorithm.fromWireName(row.get("algorithm", String.class)),
                row.get("public_key_pem", String.class),
                KeyStatus.fromWireName(row.get("status", String.class)),
                KeyRows.instant(row, "created_at"),
                KeyRows.instant(row, "last_used_at"),
                KeyRows.instant(row, "revoked_at"),
                scopes(row.get("scopes", String[].class)));
    }

    private static Set<KeyScope> scopes(String[] names) {
        EnumSet<KeyScope> scopes = EnumSet.noneOf(KeyScope.class);
        for (String name : names) {
            scopes.add(KeyScope.fromWireName(name));
        }
        return Collections.unmodifiableSet(scopes);
    }
}
