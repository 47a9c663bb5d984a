package dev.cryptopay.service.request;

import dev.cryptopay.service.money.Amounts;
import dev.cryptopay.service.text.Storable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.springframework.util.MultiValueMap;

/**
 * Reads the query string of a list route — page, page size, filters, sort, date range — with one set of messages
 * for every service. Each reader answers the value (or its default) and records a problem for a bad one; call
 * {@link #throwIfAny()} once everything is read so the client hears of every bad parameter together. Unknown
 * parameters are ignored.
 */
public final class ListQuery {

    private final MultiValueMap<String, String> params;
    private final Violations violations = new Violations();

    public ListQuery(MultiValueMap<String, String> params) {
        this.params = params;
        // No parameter may carry a NUL: PostgreSQL text cannot hold one, so it could never match or be stored.
        params.forEach((name, values) -> {
            if (Storable.hasNul(name) || values.stream().anyMatch(v -> v != null && Storable.hasNul(v))) {
                violations.reject(Storable.withoutNul(name), "Query parameters must not contain NUL characters");
            }
        });
    }

    /** {@code page} (from 1) and the page size under {@code sizeName} ({@code limit} or {@code page_size}). */
    public PageRequest page(String sizeName, int defaultSize, int maxSize) {
        int page = integer("page", 1, 1, Integer.MAX_VALUE);
        int size = integer(sizeName, defaultSize, 1, maxSize);
        return new PageRequest(page, size);
    }

    /** An integer within {@code min..max}, or {@code fallback} when absent. */
    public int integer(String name, int fallback, int min, int max) {
        String text = params.getFirst(name);
        if (text == null) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= min && value <= max) {
                return value;
            }
            violations.reject(
                    name,
                    max == Integer.MAX_VALUE
                            ? name + " must be at least " + min
                            : name + " must be between " + min + " and " + max);
        } catch (NumberFormatException e) {
            violations.reject(name, name + " must be an integer");
        }
        return fallback;
    }

    /** {@code true} or {@code false}, or null when absent. */
    public Boolean bool(String name) {
        String text = params.getFirst(name);
        if (text == null) {
            return null;
        }
        if (text.equals("true") || text.equals("false")) {
            return Boolean.valueOf(text);
        }
        violations.reject(name, name + " must be true or false");
        return null;
    }

    /** One of {@code allowed} (as given, case-sensitive), {@code fallback} when absent. */
    public String oneOf(String name, List<String> allowed, String fallback) {
        String text = params.getFirst(name);
        if (text == null) {
            return fallback;
        }
        if (!allowed.contains(text)) {
            violations.reject(name, name + " must be one of " + String.join(", ", allowed));
        }
        return text;
    }

    /** {@code sort_order}: asc or desc in any case, desc when absent; answered in lower case. */
    public String sortOrder() {
        String text = params.getFirst("sort_order");
        String order = text == null ? "desc" : text.toLowerCase(Locale.ROOT);
        if (!order.equals("asc") && !order.equals("desc")) {
            violations.reject("sort_order", "sort_order must be asc or desc");
        }
        return order;
    }

    /** A UUID in its canonical form, or null when absent. */
    public UUID uuid(String name) {
        return uuid(name, params.getFirst(name));
    }

    /** {@code text} (taken from elsewhere in the request, e.g. the path) read as the UUID named {@code name}. */
    public UUID uuid(String name, String text) {
        if (text == null) {
            return null;
        }
        if (!Field.isUuid(text)) {
            violations.reject(name, name + " must be a UUID");
            return null;
        }
        return UUID.fromString(text);
    }

    /** A string of {@code min..max} characters taken as given, or null when absent. */
    public String text(String name, int min, int max) {
        String text = params.getFirst(name);
        if (text != null && (text.length() < min || text.length() > max)) {
            violations.reject(name, name + " must be " + min + "-" + max + " characters");
        }
        return text;
    }

    /** A free-text search term, trimmed; null when absent or blank. */
    public String search(String name, int maxLength) {
        String text = params.getFirst(name);
        if (text == null) {
            return null;
        }
        text = text.trim();
        if (text.codePointCount(0, text.length()) > maxLength) {
            violations.reject(name, name + " must be at most " + maxLength + " characters");
        }
        return text.isEmpty() ? null : text;
    }

    /** A decimal greater than 0, or null when absent. */
    public BigDecimal positiveDecimal(String name) {
        String text = params.getFirst(name);
        if (text == null) {
            return null;
        }
        try {
            BigDecimal value = new BigDecimal(text.trim());
            // Judged before any arithmetic: 1e100000000 is a valid BigDecimal that no comparison should expand.
            if (Amounts.integerDigits(value) > 20 || value.scale() > 18) {
                violations.reject(name, name + " must have at most 20 digits before and 18 after the point");
                return null;
            }
            if (value.signum() > 0) {
                return value;
            }
            violations.reject(name, name + " must be greater than 0");
        } catch (NumberFormatException e) {
            violations.reject(name, name + " must be a number");
        }
        return null;
    }

    /** The start of a date range: a timestamp, or a date meaning the start of that day (UTC). */
    public Instant from(String name) {
        return time(name, false);
    }

    /** The end of a date range: a timestamp, or a date meaning the end of that day (UTC). */
    public Instant to(String name) {
        return time(name, true);
    }

    /** A creation date range: both ends optional, the start not after the end. */
    public record DateRange(Instant from, Instant to) {}

    /** {@link #from} and {@link #to} together, refusing a start after the end (named by the start parameter). */
    public DateRange dateRange(String fromName, String toName) {
        Instant from = from(fromName);
        Instant to = to(toName);
        if (from != null && to != null && from.isAfter(to)) {
            violations.reject(fromName, fromName + " must not be after " + toName);
        }
        return new DateRange(from, to);
    }

    private Instant time(String name, boolean endOfDay) {
        String text = params.getFirst(name);
        if (text == null) {
            return null;
        }
        try {
            return bounded(name, OffsetDateTime.parse(text.trim()).toInstant());
        } catch (DateTimeParseException notATimestamp) {
            try {
                LocalDate date = LocalDate.parse(text.trim());
                if (date.getYear() < 1 || date.getYear() > 9999) {
                    // Checked before the day's end is computed: the day after +999999999-12-31 does not exist.
                    return outOfRange(name);
                }
                return bounded(
                        name,
                        endOfDay
                                ? date.plusDays(1)
                                        .atStartOfDay()
                                        .toInstant(ZoneOffset.UTC)
                                        .minusNanos(1000)
                                : date.atStartOfDay().toInstant(ZoneOffset.UTC));
            } catch (DateTimeParseException notADate) {
                violations.reject(name, name + " must be an ISO 8601 timestamp or date");
                return null;
            }
        }
    }

    private Instant bounded(String name, Instant instant) {
        if (Storable.inRange(instant)) {
            return instant;
        }
        return outOfRange(name);
    }

    private Instant outOfRange(String name) {
        violations.reject(name, name + " must lie between the years 1 and 9999");
        return null;
    }

    /** For checks that involve several parameters (e.g. min not above max). */
    public Violations violations() {
        return violations;
    }

    public void throwIfAny() {
        violations.throwIfAny();
    }
}
