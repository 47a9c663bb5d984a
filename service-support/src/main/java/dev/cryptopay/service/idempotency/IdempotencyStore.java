package dev.cryptopay.service.idempotency;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Mono;

/**
 * Runs a POST at most once per {@code Idempotency-Key}. The claim is an insert into the service's
 * {@code idempotency_key} table keyed by (merchant, mode, key), in the same transaction as the work: a concurrent
 * request with the same key waits on that row until the first commits, then finds the stored response. A failed
 * request rolls its claim back, so the key can be retried. A key older than the retention is claimed afresh.
 *
 * <p>A service using it has the table (see service-support's README) and sets {@code idempotency.enabled=true}.
 */
public class IdempotencyStore {

    public static final String HEADER = "Idempotency-Key";
    static final int MAX_KEY_LENGTH = 255;

    private final DatabaseClient database;
    private final TransactionalOperator tx;
    private final IdempotencyProperties properties;

    public IdempotencyStore(DatabaseClient database, TransactionalOperator tx, IdempotencyProperties properties) {
        this.database = database;
        this.tx = tx;
        this.properties = properties;
    }

    /** Rejects a key that is blank or too long; returns it unchanged otherwise (null stays null). */
    public static String validate(String key) {
        if (key != null && (key.isBlank() || key.length() > MAX_KEY_LENGTH)) {
            throw ApiException.invalidField(
                    "invalid_idempotency_key", HEADER, HEADER + " must be 1-" + MAX_KEY_LENGTH + " characters");
        }
        if (key != null && key.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw ApiException.invalidField(
                    "invalid_idempotency_key", HEADER, HEADER + " must not contain control characters");
        }
        return key;
    }

    /**
     * The answer of a create route: 201 with the JSON {@code create} renders, run at most once per key (see
     * {@link #respond}).
     */
    public Mono<ResponseEntity<String>> created(
            MerchantIdentity merchant, String key, String requestBody, Instant now, Supplier<Mono<String>> create) {
        return respond(merchant, key, requestBody, now, HttpStatus.CREATED, create);
    }

    /**
     * As {@link #created}, for a create that keeps itself consistent: it opens its own transaction, or a failure after
     * its first statement leaves nothing wrong behind. Without a key no transaction is opened around it, which saves a
     * BEGIN and a COMMIT per request; with a key it runs in the claim's transaction, as every work does.
     */
    public Mono<ResponseEntity<String>> createdSelfContained(
            MerchantIdentity merchant, String key, String requestBody, Instant now, Supplier<Mono<String>> create) {
        if (key != null) {
            return created(merchant, key, requestBody, now, create);
        }
        return Mono.defer(create).map(body -> json(HttpStatus.CREATED.value(), body));
    }

    /**
     * The answer of a POST route that takes an {@code Idempotency-Key}: {@code status} with the JSON {@code work}
     * renders, run at most once per key (see {@link #execute}); a retry with the same key and request answers the
     * first response byte for byte, status included.
     *
     * @param request what identifies the request for the key: its body, with whatever else of the request it depends
     *     on (a path id, say), so that the same key on another request is a 409 rather than that request's answer
     */
    public Mono<ResponseEntity<String>> respond(
            MerchantIdentity merchant,
            String key,
            String request,
            Instant now,
            HttpStatus status,
            Supplier<Mono<String>> work) {
        return execute(
                        merchant,
                        key,
                        request,
                        now,
                        () -> work.get().map(json -> new StoredResponse(status.value(), json)))
                .map(stored -> json(stored.status(), stored.body()));
    }

    private static ResponseEntity<String> json(int status, String body) {
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .body(body);
    }

    /**
     * Runs {@code work} in one transaction with the claim of {@code key} (when there is one) and stores its
     * response; a retry of the same request answers the stored response without running the work, and the same
     * key with another body is a 409.
     */
    public Mono<StoredResponse> execute(
            MerchantIdentity merchant,
            String key,
            String requestBody,
            Instant now,
            Supplier<Mono<StoredResponse>> work) {
        if (key == null) {
            return tx.transactional(Mono.defer(work));
        }
        return tx.transactional(claim(merchant, key, requestBody, now)
                .flatMap(stored -> stored.isPresent()
                        ? Mono.just(stored.get())
                        : Mono.defer(work)
                                .flatMap(response ->
                                        complete(merchant, key, response).thenReturn(response))));
    }

    private Mono<Optional<StoredResponse>> claim(
            MerchantIdentity merchant, String key, String requestBody, Instant now) {
        String hash = sha256(requestBody == null ? "" : requestBody);
        Mono<Void> forgetExpired = database.sql("DELETE FROM idempotency_key WHERE merchant_id = :merchant "
                        + "AND mode = :mode AND key = :key AND created_at < :cutoff")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .bind("key", key)
                .bind("cutoff", now.minus(properties.retention()).atOffset(ZoneOffset.UTC))
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

    private Mono<Void> complete(MerchantIdentity merchant, String key, StoredResponse response) {
        return database.sql("UPDATE idempotency_key SET status_code = :status, response_body = :body "
                        + "WHERE merchant_id = :merchant AND mode = :mode AND key = :key")
                .bind("status", response.status())
                .bind("body", response.body())
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .bind("key", key)
                .then();
    }

    /** Removes keys past retention; run periodically by the service. */
    public Mono<Long> purge(Instant now) {
        return database.sql("DELETE FROM idempotency_key WHERE created_at < :cutoff")
                .bind("cutoff", now.minus(properties.retention()).atOffset(ZoneOffset.UTC))
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
