package dev.cryptopay.service.request;

import dev.cryptopay.auth.internal.MerchantIdentity;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;

/**
 * The WHERE clause of a list query, built from named parameters only (values are never spliced into SQL). It starts
 * with the merchant and mode, so no list can cross tenants or modes.
 *
 * <pre>{@code
 * Where where = Where.merchant(merchant, "p.").equal("p.status", "status", "active").search(term, "p.name");
 * database.sql("SELECT ... FROM plan p WHERE " + where.clause()) ... where.bind(spec)
 * }</pre>
 */
public final class Where {

    private final List<String> conditions = new ArrayList<>();
    private final Map<String, Object> values = new LinkedHashMap<>();

    private Where() {}

    /** {@code merchant_id} and {@code mode} of the table aliased by {@code prefix} (e.g. {@code "p."}, or empty). */
    public static Where merchant(MerchantIdentity merchant, String prefix) {
        Where where = new Where();
        where.conditions.add(prefix + "merchant_id = :merchant AND " + prefix + "mode = :mode");
        where.values.put("merchant", merchant.merchantId());
        where.values.put("mode", merchant.mode().wireName());
        return where;
    }

    /**
     * No tenant condition: for public routes, which answer only customer-safe fields of rows anyone holding the
     * link may see. Every merchant route starts with {@link #merchant} instead.
     */
    public static Where publicRows() {
        return new Where();
    }

    /** {@code column = :name} when the value is not null. */
    public Where equal(String column, String name, Object value) {
        return compare(column, "=", name, value);
    }

    /** {@code column >= :name} when the value is not null. */
    public Where atLeast(String column, String name, Object value) {
        return compare(column, ">=", name, value);
    }

    /** {@code column <= :name} when the value is not null. */
    public Where atMost(String column, String name, Object value) {
        return compare(column, "<=", name, value);
    }

    private Where compare(String column, String operator, String name, Object value) {
        if (value != null) {
            conditions.add(column + " " + operator + " :" + name);
            values.put(name, value instanceof Instant i ? utc(i) : value);
        }
        return this;
    }

    /** A condition with its own named parameters; values that are instants are bound as UTC timestamps. */
    public Where and(String condition, Map<String, Object> parameters) {
        conditions.add(condition);
        parameters.forEach((name, value) -> values.put(name, value instanceof Instant i ? utc(i) : value));
        return this;
    }

    /** {@code column} within the inclusive range; either end may be null. */
    public Where between(String column, Instant from, Instant to) {
        String name = column.replaceAll("[^A-Za-z0-9]", "_");
        return atLeast(column, name + "_from", from).atMost(column, name + "_to", to);
    }

    /** Any of the columns contains the term, case-insensitively, with LIKE wildcards in the term taken literally. */
    public Where search(String term, String... columns) {
        if (term != null) {
            List<String> matches = new ArrayList<>();
            for (String column : columns) {
                matches.add(column + " ILIKE :search ESCAPE '\\'");
            }
            conditions.add("(" + String.join(" OR ", matches) + ")");
            values.put(
                    "search",
                    "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
        }
        return this;
    }

    public String clause() {
        return String.join(" AND ", conditions);
    }

    public GenericExecuteSpec bind(GenericExecuteSpec spec) {
        GenericExecuteSpec bound = spec;
        for (Map.Entry<String, Object> value : values.entrySet()) {
            bound = bound.bind(value.getKey(), value.getValue());
        }
        return bound;
    }

    private static Object utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
