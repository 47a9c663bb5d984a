package dev.cryptopay.gateway.keys;

import io.r2dbc.spi.Readable;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import org.springframework.r2dbc.core.DatabaseClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** What the two key tables ({@code api_key}, {@code publishable_key}) share: the merchant join, times, last use. */
final class KeyRows {

    /** The merchant's columns when a key row is joined with {@code merchant m}. */
    static final String MERCHANT_COLUMNS = ", m.name AS m_name, m.email AS m_email, m.created_at AS m_created_at ";

    private KeyRows() {}

    /** The merchant of a key row joined with {@link #MERCHANT_COLUMNS}. */
    static Merchant joinedMerchant(Readable row) {
        return new Merchant(
                row.get("merchant_id", UUID.class),
                row.get("m_name", String.class),
                row.get("m_email", String.class),
                instant(row, "m_created_at"));
    }

    /** Writes collected "last used" times into {@code table}; never moves one backwards. */
    static Mono<Long> recordLastUsed(DatabaseClient db, String table, Map<UUID, Instant> lastUsed) {
        return Flux.fromIterable(lastUsed.entrySet())
                .concatMap(entry -> db.sql("UPDATE " + table + " SET last_used_at = :at WHERE id = :id "
                                + "AND (last_used_at IS NULL OR last_used_at < :at)")
                        .bind("at", toDb(entry.getValue()))
                        .bind("id", entry.getKey())
                        .fetch()
                        .rowsUpdated())
                .reduce(0L, Long::sum);
    }

    static Instant instant(Readable row, String column) {
        OffsetDateTime value = row.get(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    static OffsetDateTime toDb(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
