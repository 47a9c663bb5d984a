package dev.cryptopay.paymentlinks.idempotency;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Optional;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Claims an idempotency key inside the caller's transaction. The claim is an insert into a table keyed by
 * (merchant, mode, key): a concurrent request with the same key waits on that row until the first commits, then
 * finds the stored response. A failed request rolls its claim back, so the key can be retried. Keys are kept for
 * the configured retention (24 h by default); an older key is claimed afresh.
 */
@Component
public class IdempotencyStore {

    public static final String HEADER = "Idempotency-Key";
    static final int MAX_KEY_LENGTH = 255;

    private final DatabaseClient database;

    public IdempotencyStore(DatabaseClient database) {
        this.database = database;
    }

    /** Rejects a key that is blank or too long; returns it unchanged otherwise (null stays null). */
    public static String validate(String key) {
        if (key != null && (key.isBlank() || key.length() > MAX_KEY_LENGTH)) {
            throw ApiException.invalidField(
                    "invalid_idempotency_key", HEADER, HEADER + " must be 1-" + MAX_KEY_LENGTH + " characters");
        }
        return key;
    }

    /**
     * Claims the key for this request. Answers the stored response when the same request was already served, an
     * empty result when the caller should go on and {@link #complete} it, and a 409 when the key was used for a
     * different request.
     */
    public Mono<Optional<StoredResponse>> claim(
            MerchantIdentity merchant, String key, String requestBody, Instant now, Duration retention) {
        String hash = sha256(requestBody);
        Mono<Void> forgetExpired = database.sql("DELETE FROM idempotency_key WHERE merchant_id = :merchant "
                        + "AND mode = :mode AND key = :key AND created_at < :cutoff")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .bind("key", key)
                .bind("cutoff", now.minus(retention).atOffset(ZoneOffset.UTC))
                .then();
        Mono<Long> insert = database.sql("INSERT INTO idempotency_key (merchant_id, mode, key, request_hash, "
                        + "status_code, response_body, created_at) VALUES (:merchant, :mode, :key, :hash, 0, '', :now) "
                        + "ON CONFLICT DO NOTHING")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .bind("key", key)
                .bind("hash", hash)
                .bind("now", now.atOffset(ZoneOffset.UTC))
                .fetch()
                .rowsUpdated();
        return forgetExpired
                .then(insert)
                .flatMap(inserted -> inserted > 0
                        ? Mono.just(Optional.empty())
                        : existing(merchant, key).map(stored -> {
                            if (!stored.hash().equals(hash)) {
                                throw ApiException.conflict(
                                        "idempotency_key_reused",
                                        "This Idempotency-Key was already used with a different request body");
                            }
                            return Optional.of(new StoredResponse(stored.status(), stored.body()));
                        }));
    }

    /** Stores the response the claimed request produced; same transaction as the claim. */
    public Mono<Void> complete(MerchantIdentity merchant, String key, StoredResponse response) {
        return database.sql("UPDATE idempotency_key SET status_code = :status, response_body = :body "
                        + "WHERE merchant_id = :merchant AND mode = :mode AND key = :key")
                .bind("status", response.status())
                .bind("body", response.body())
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .bind("key", key)
                .then();
    }

    /** Removes keys past retention; run periodically. */
    public Mono<Long> purge(Instant now, Duration retention) {
        return database.sql("DELETE FROM idempotency_key WHERE created_at < :cutoff")
                .bind("cutoff", now.minus(retention).atOffset(ZoneOffset.UTC))
                .fetch()
                .rowsUpdated();
    }

    private Mono<Row> existing(MerchantIdentity merchant, String key) {
        return database.sql("SELECT request_hash, status_code, response_body FROM idempotency_key "
                        + "WHERE merchant_id = :merchant AND mode = :mode AND key = :key")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .bind("key", key)
                .map(row -> new Row(
                        row.get("request_hash", String.class),
                        row.get("status_code", Integer.class),
                        row.get("response_body", String.class)))
                .one();
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JRE", e);
        }
    }

    private record Row(String hash, int status, String body) {}
}
