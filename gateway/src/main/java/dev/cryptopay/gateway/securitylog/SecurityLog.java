package dev.cryptopay.gateway.securitylog;

import dev.cryptopay.auth.Mode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The {@code security_event} table: entries are added and read, never changed (the table refuses it too). */
public class SecurityLog {

    private static final String INSERT = "INSERT INTO security_event (id, merchant_id, mode, action, key_id,"
            + " key_prefix, client_address, target_id, created_at) ";

    private final DatabaseClient db;

    public SecurityLog(DatabaseClient db) {
        this.db = db;
    }

    /** Adds an entry. */
    public Mono<Void> record(SecurityEvent event) {
        return bind(
                        db.sql(INSERT + "VALUES (:id, :merchant, :mode, :action, :key, :prefix, :address, :target,"
                                + " :at)"),
                        event)
                .then();
    }

    /**
     * Adds the key's {@code api_key.first_used} entry, unless the key was used before (its {@code last_used_at} is
     * set: keys in use before the log existed are not "new") or the entry exists (another request, another instance).
     */
    public Mono<Void> recordFirstUse(SecurityEvent event) {
        return bind(
                        db.sql(INSERT + "SELECT :id, :merchant, :mode, :action, :key, :prefix, :address, :target, :at"
                                + " WHERE EXISTS (SELECT 1 FROM api_key WHERE id = :key AND last_used_at IS NULL)"
                                + " ON CONFLICT (key_id) WHERE action = 'api_key.first_used' DO NOTHING"),
                        event)
                .then();
    }

    /** One page of the merchant's entries of one mode, newest first. */
    public Flux<SecurityEvent> page(UUID merchantId, Mode mode, long offset, int limit) {
        return db.sql("SELECT * FROM security_event WHERE merchant_id = :merchant AND mode = :mode"
                        + " ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset")
                .bind("merchant", merchantId)
                .bind("mode", mode.wireName())
                .bind("limit", limit)
                .bind("offset", offset)
                .map((row, meta) -> new SecurityEvent(
                        row.get("id", UUID.class),
                        row.get("merchant_id", UUID.class),
                        Mode.fromWireName(row.get("mode", String.class)),
                        SecurityAction.fromWireName(row.get("action", String.class)),
                        row.get("key_id", UUID.class),
                        row.get("key_prefix", String.class),
                        row.get("client_address", String.class),
                        row.get("target_id", UUID.class),
                        row.get("created_at", OffsetDateTime.class).toInstant()))
                .all();
    }

    /** How many entries of one mode the merchant has. */
    public Mono<Long> count(UUID merchantId, Mode mode) {
        return db.sql("SELECT count(*) AS n FROM security_event WHERE merchant_id = :merchant AND mode = :mode")
                .bind("merchant", merchantId)
                .bind("mode", mode.wireName())
                .map(row -> row.get("n", Long.class))
                .one();
    }

    private static Mono<Long> bind(GenericExecuteSpec spec, SecurityEvent event) {
        GenericExecuteSpec bound = spec.bind("id", event.id())
                .bind("merchant", event.merchantId())
                .bind("mode", event.mode().wireName())
                .bind("action", event.action().wireName())
                .bind("key", event.keyId())
                .bind("prefix", event.keyPrefix())
                .bind("address", event.clientAddress())
                .bind("at", utc(event.createdAt()));
        bound = event.targetId() == null
                ? bound.bindNull("target", UUID.class)
                : bound.bind("target", event.targetId());
        return bound.fetch().rowsUpdated();
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
