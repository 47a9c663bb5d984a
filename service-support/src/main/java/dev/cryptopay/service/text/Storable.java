package dev.cryptopay.service.text;

import dev.cryptopay.service.money.Amounts;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The limits of what PostgreSQL stores, checked before a value reaches it (or any arithmetic): text cannot hold the
 * NUL character, {@code numeric} has bounded digits, {@code timestamptz} a bounded range. A value past them is the
 * client's mistake, answered with a 400 — never a failed statement and a 500.
 */
public final class Storable {

    /** The earliest and latest instants any service accepts (years 1 to 9999, UTC). */
    public static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

    /** Digits before and after the decimal point a number inside free-form JSON may have. */
    public static final int MAX_JSON_NUMBER_DIGITS = 100;

    private Storable() {}

    public static boolean hasNul(String text) {
        return text.indexOf('\u0000') >= 0;
    }

    /** The text without NUL characters, for text from outside that is kept as given otherwise (e.g. logs). */
    public static String withoutNul(String text) {
        return text == null || !hasNul(text) ? text : text.replace("\u0000", "");
    }

    public static boolean inRange(Instant instant) {
        return !instant.isBefore(EARLIEST) && !instant.isAfter(LATEST);
    }

    /**
     * Why free-form JSON (stored as {@code jsonb}) cannot be stored, if it cannot: a NUL in a key or string, or a
     * number with more than {@value #MAX_JSON_NUMBER_DIGITS} digits before or after the point (judged without
     * expanding it: {@code 1e100000000} is refused in constant time).
     */
    public static Optional<String> jsonProblem(JsonNode node) {
        if (node.isString()) {
            return hasNul(node.asString()) ? Optional.of("must not contain NUL characters") : Optional.empty();
        }
        if (node.isNumber()) {
            BigDecimal number = node.decimalValue();
            return Amounts.integerDigits(number) > MAX_JSON_NUMBER_DIGITS || number.scale() > MAX_JSON_NUMBER_DIGITS
                    ? Optional.of("must not hold numbers of more than " + MAX_JSON_NUMBER_DIGITS
                            + " digits before or after the point")
                    : Optional.empty();
        }
        for (String name : node.propertyNames()) {
            if (hasNul(name)) {
                return Optional.of("must not contain NUL characters");
            }
            Optional<String> inner = jsonProblem(node.get(name));
            if (inner.isPresent()) {
                return inner;
            }
        }
        if (node.isArray()) {
            for (JsonNode element : node) {
                Optional<String> inner = jsonProblem(element);
                if (inner.isPresent()) {
                    return inner;
                }
            }
        }
        return Optional.empty();
    }
}
