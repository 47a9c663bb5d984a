package dev.cryptopay.paymentlinks.receiving;

import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.bip32.ExtendedPublicKey;
import dev.cryptopay.auth.internal.MerchantIdentity;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

/** Stores receiving keys; every merchant query filters by merchant id and mode. */
@Repository
class ReceivingKeyRepository {

    private static final String COLUMNS =
            "id, merchant_id, mode, extended_public_key, next_index, is_current, created_at, updated_at";

    private final DatabaseClient database;

    ReceivingKeyRepository(DatabaseClient database) {
        this.database = database;
    }

    Mono<ReceivingKey> current(MerchantIdentity merchant) {
        return database.sql("SELECT " + COLUMNS + " FROM receiving_key "
                        + "WHERE merchant_id = :merchant AND mode = :mode AND is_current")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(ReceivingKeyRepository::row)
                .one();
    }

    /** Serialises key changes of one merchant and mode until the transaction ends. */
    Mono<Void> lockMerchant(MerchantIdentity merchant) {
        return database.sql("SELECT pg_advisory_xact_lock(hashtextextended(:name, 0))")
                .bind(
                        "name",
                        "receiving_key:" + merchant.merchantId() + ":"
                                + merchant.mode().wireName())
                .then();
    }

    /** The key with this material, whoever registered it. */
    Mono<ReceivingKey> withMaterial(String material) {
        return database.sql("SELECT " + COLUMNS + " FROM receiving_key WHERE key_material = :material")
                .bind("material", material)
                .map(ReceivingKeyRepository::row)
                .one();
    }

    Mono<Void> retireCurrent(MerchantIdentity merchant, Instant now) {
        return database.sql("UPDATE receiving_key SET is_current = FALSE, updated_at = :now "
                        + "WHERE merchant_id = :merchant AND mode = :mode AND is_current")
                .bind("now", utc(now))
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .then();
    }

    Mono<Void> makeCurrent(UUID id, String text, Instant now) {
        return database.sql("UPDATE receiving_key SET is_current = TRUE, extended_public_key = :text, "
                        + "updated_at = :now WHERE id = :id")
                .bind("text", text)
                .bind("now", utc(now))
                .bind("id", id)
                .then();
    }

    Mono<Void> insert(ReceivingKey key) {
        return database.sql("INSERT INTO receiving_key (id, merchant_id, mode, extended_public_key, key_material, "
                        + "next_index, is_current, created_at, updated_at) VALUES (:id, :merchant, :mode, :text, "
                        + ":material, :next, :current, :created, :updated)")
                .bind("id", key.id())
                .bind("merchant", key.merchantId())
                .bind("mode", key.mode().wireName())
                .bind("text", key.key().serialize())
                .bind("material", key.key().material())
                .bind("next", key.nextIndex())
                .bind("current", key.current())
                .bind("created", utc(key.createdAt()))
                .bind("updated", utc(key.updatedAt()))
                .then();
    }

    /**
     * Hands out the current key's next index (the row lock makes concurrent creates take distinct indexes); empty
     * when the merchant has no key for the mode or the key is used up.
     */
    Mono<ReceivingKey> takeNextIndex(MerchantIdentity merchant, Instant now) {
        return database.sql("UPDATE receiving_key SET next_index = next_index + 1, updated_at = :now "
                        + "WHERE merchant_id = :merchant AND mode = :mode AND is_current "
                        + "AND next_index < 2147483648 RETURNING "
                        + COLUMNS.replace("next_index", "next_index - 1 AS next_index"))
                .bind("now", utc(now))
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(ReceivingKeyRepository::row)
                .one();
    }

    private static ReceivingKey row(Readable row) {
        return new ReceivingKey(
                row.get("id", UUID.class),
                row.get("merchant_id", UUID.class),
                Mode.fromWireName(row.get("mode", String.class)),
                ExtendedPublicKey.parse(row.get("extended_public_key", String.class)),
                row.get("next_index", Long.class),
                row.get("is_current", Boolean.class),
                instant(row.get("created_at", OffsetDateTime.class)),
                instant(row.get("updated_at", OffsetDateTime.class)));
    }
}
