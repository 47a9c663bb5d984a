package dev.cryptopay.webhooks.endpoint;

import static dev.cryptopay.service.db.SqlValues.instant;
import static dev.cryptopay.service.db.SqlValues.utc;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.db.SqlValues;
import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Collection;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Stores endpoints; deleted ones are kept (deleted_at) because their deliveries reference them. */
@Repository
public class EndpointRepository {

    private static final String COLUMNS = "id, merchant_id, mode, url, description, event_types, secret_encrypted, "
            + "enabled, created_at, updated_at";
    private static final String READ_COLUMNS = COLUMNS + ", failing_since, disabled_at, disabled_reason";

    private final DatabaseClient database;

    public EndpointRepository(DatabaseClient database) {
        this.database = database;
    }

    public Mono<Void> insert(WebhookEndpoint endpoint) {
        var spec = database.sql("INSERT INTO webhook_endpoint (" + COLUMNS + ") VALUES (:id, :merchant, :mode, :url, "
                        + ":description, :types, :secret, :enabled, :createdAt, :updatedAt)")
                .bind("id", endpoint.id())
                .bind("merchant", endpoint.merchantId())
                .bind("mode", endpoint.mode().wireName())
                .bind("url", endpoint.url())
                .bind("types", endpoint.eventTypes().toArray(String[]::new))
                .bind("secret", endpoint.secretEncrypted())
                .bind("enabled", endpoint.enabled())
                .bind("createdAt", utc(endpoint.createdAt()))
                .bind("updatedAt", utc(endpoint.updatedAt()));
        return SqlValues.bind(spec, "description", endpoint.description(), String.class)
                .then();
    }

    public Flux<WebhookEndpoint> list(MerchantIdentity merchant) {
        return database.sql("SELECT " + READ_COLUMNS + " FROM webhook_endpoint WHERE merchant_id = :merchant "
                        + "AND mode = :mode AND deleted_at IS NULL ORDER BY created_at, id")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(EndpointRepository::read)
                .all();
    }

    public Mono<Long> count(MerchantIdentity merchant) {
        return database.sql("SELECT count(*) AS n FROM webhook_endpoint WHERE merchant_id = :merchant "
                        + "AND mode = :mode AND deleted_at IS NULL")
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(row -> row.get("n", Long.class))
                .one();
    }

    public Mono<WebhookEndpoint> find(MerchantIdentity merchant, UUID id) {
        return database.sql(
                        "SELECT " + READ_COLUMNS + " FROM webhook_endpoint WHERE id = :id AND merchant_id = :merchant "
                                + "AND mode = :mode AND deleted_at IS NULL")
                .bind("id", id)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .map(EndpointRepository::read)
                .one();
    }

    /**
     * Every endpoint (not deleted) of these merchants, in both modes, for the intake to pick each event's subscribers
     * from; a disabled one included, so its deliveries are kept (held) until it is enabled again.
     */
    public Flux<WebhookEndpoint> subscribersOf(Collection<UUID> merchantIds) {
        return database.sql("SELECT " + READ_COLUMNS + " FROM webhook_endpoint WHERE merchant_id = ANY(:merchants) "
                        + "AND deleted_at IS NULL")
                .bind("merchants", merchantIds.toArray(UUID[]::new))
                .map(EndpointRepository::read)
                .all();
    }

    public Mono<byte[]> secretOf(UUID endpointId) {
        return database.sql("SELECT secret_encrypted FROM webhook_endpoint WHERE id = :id")
                .bind("id", endpointId)
                .map(row -> row.get("secret_encrypted", byte[].class))
                .one();
    }

    /** Every endpoint's id and stored secret, deleted ones included (for the legacy-secret upgrade). */
    public Flux<StoredSecret> allSecrets() {
        return database.sql("SELECT id, secret_encrypted FROM webhook_endpoint")
                .map(row -> new StoredSecret(row.get("id", UUID.class), row.get("secret_encrypted", byte[].class)))
                .all();
    }

    /** An endpoint's id and its stored (encrypted) secret. */
    public record StoredSecret(UUID endpointId, byte[] encrypted) {}

    /**
     * Replaces a stored secret by its re-encryption, only if it is still {@code old}: a rotation in between wins.
     */
    public Mono<Long> upgradeSecret(UUID id, byte[] old, byte[] upgraded) {
        return database.sql("UPDATE webhook_endpoint SET secret_encrypted = :upgraded "
                        + "WHERE id = :id AND secret_encrypted = :old")
                .bind("upgraded", upgraded)
                .bind("id", id)
                .bind("old", old)
                .fetch()
                .rowsUpdated();
    }

    public Mono<Long> delete(MerchantIdentity merchant, UUID id, Instant now) {
        return database.sql("UPDATE webhook_endpoint SET deleted_at = :now, enabled = FALSE, updated_at = :now "
                        + "WHERE id = :id AND merchant_id = :merchant AND mode = :mode AND deleted_at IS NULL")
                .bind("now", utc(now))
                .bind("id", id)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .fetch()
                .rowsUpdated();
    }

    public Mono<Long> replaceSecret(MerchantIdentity merchant, UUID id, byte[] secret, Instant now) {
        return database.sql("UPDATE webhook_endpoint SET secret_encrypted = :secret, updated_at = :now "
                        + "WHERE id = :id AND merchant_id = :merchant AND mode = :mode AND deleted_at IS NULL")
                .bind("secret", secret)
                .bind("now", utc(now))
                .bind("id", id)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .fetch()
                .rowsUpdated();
    }

    /** Where an endpoint's run of failed attempts stands after one more. */
    public record FailureRun(UUID merchantId, Mode mode, Instant failingSince, int failedAttempts, boolean enabled) {}

    /** Counts a failed attempt that started at {@code startedAt} into the endpoint's run of failures. */
    public Mono<FailureRun> recordFailure(UUID id, Instant startedAt) {
        return database.sql("UPDATE webhook_endpoint SET failing_since = COALESCE(failing_since, :started), "
                        + "failed_attempts = failed_attempts + 1 WHERE id = :id "
                        + "RETURNING merchant_id, mode, failing_since, failed_attempts, "
                        + "(enabled AND deleted_at IS NULL) AS active")
                .bind("started", utc(startedAt))
                .bind("id", id)
                .map(row -> new FailureRun(
                        row.get("merchant_id", UUID.class),
                        Mode.fromWireName(row.get("mode", String.class)),
                        row.get("failing_since", OffsetDateTime.class).toInstant(),
                        row.get("failed_attempts", Integer.class),
                        row.get("active", Boolean.class)))
                .one();
    }

    /** Disables an enabled endpoint; answers whether this call did it. */
    public Mono<Boolean> disable(UUID id, String reason, Instant now) {
        return database.sql("UPDATE webhook_endpoint SET enabled = FALSE, disabled_at = :now, disabled_reason = "
                        + ":reason, updated_at = :now WHERE id = :id AND enabled AND deleted_at IS NULL")
                .bind("now", utc(now))
                .bind("reason", reason)
                .bind("id", id)
                .fetch()
                .rowsUpdated()
                .map(updated -> updated > 0);
    }

    /** Enables a disabled endpoint of this merchant and mode with a clean slate; answers whether this call did it. */
    public Mono<Boolean> enable(MerchantIdentity merchant, UUID id, Instant now) {
        return database.sql("UPDATE webhook_endpoint SET enabled = TRUE, disabled_at = NULL, disabled_reason = NULL, "
                        + "failing_since = NULL, failed_attempts = 0, updated_at = :now WHERE id = :id "
                        + "AND merchant_id = :merchant AND mode = :mode AND deleted_at IS NULL AND NOT enabled")
                .bind("now", utc(now))
                .bind("id", id)
                .bind("merchant", merchant.merchantId())
                .bind("mode", merchant.mode().wireName())
                .fetch()
                .rowsUpdated()
                .map(updated -> updated > 0);
    }

    static WebhookEndpoint read(Readable row) {
        return new WebhookEndpoint(
                row.get("id", UUID.class),
                row.get("merchant_id", UUID.class),
                Mode.fromWireName(row.get("mode", String.class)),
                row.get("url", String.class),
                row.get("description", String.class),
                Arrays.asList(row.get("event_types", String[].class)),
                row.get("secret_encrypted", byte[].class),
                row.get("enabled", Boolean.class),
                row.get("created_at", OffsetDateTime.class).toInstant(),
                row.get("updated_at", OffsetDateTime.class).toInstant(),
                instant(row.get("failing_since", OffsetDateTime.class)),
                instant(row.get("disabled_at", OffsetDateTime.class)),
                row.get("disabled_reason", String.class));
    }
}
