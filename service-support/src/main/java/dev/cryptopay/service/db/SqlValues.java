package dev.cryptopay.service.db;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;

/**
 * How repositories hand values to R2DBC and read them back: instants as UTC {@code timestamptz} values, and
 * parameters that may be null bound with their type (R2DBC refuses {@code bind(name, null)}).
 */
public final class SqlValues {

    private SqlValues() {}

    /** {@code instant} at UTC, or null for null. */
    public static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    /** The instant of a {@code timestamptz} column, or null for SQL NULL. */
    public static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }

    /** Binds {@code value}, or SQL NULL of {@code type} when it is null. */
    public static <T> GenericExecuteSpec bind(GenericExecuteSpec spec, String name, T value, Class<T> type) {
        return value == null ? spec.bindNull(name, type) : spec.bind(name, value);
    }

    /** Binds an instant at UTC, or SQL NULL when it is null. */
    public static GenericExecuteSpec bind(GenericExecuteSpec spec, String name, Instant value) {
        return bind(spec, name, utc(value), OffsetDateTime.class);
    }
}
