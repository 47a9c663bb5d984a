package dev.cryptopay.service.request;

import dev.cryptopay.service.error.FieldError;
import dev.cryptopay.service.money.Amounts;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The declared rules of one member of a JSON request object, e.g.
 * {@code Field.string("payment_name").required().length(1, 100)}. Declare fields once (as constants) and
 * {@link #read} them from each request: a bad value is recorded in {@link Violations} with the field's path, a
 * message naming it and the field's problem code, and read answers null. Null members count as absent.
 *
 * @param <T> the Java value the field reads
 * @param <F> the concrete field type, so the rule methods chain
 */
public abstract class Field<T, F extends Field<T, F>> {

    private final String name;
    private boolean required;
    private String code = FieldError.VALIDATION_FAILED;

    Field(String name) {
        this.name = name;
    }

    public static Text string(String name) {
        return new Text(name);
    }

    /** A string of at most 254 characters shaped like an e-mail address. */
    public static Text email(String name) {
        return new Text(name).length(3, 254).matching(EMAIL, "must be a valid e-mail address");
    }

    /** An absolute http(s) URL. */
    public static Text url(String name) {
        return new Text(name).length(1, 2048).httpUrl();
    }

    public static Decimal money(String name) {
        return new Decimal(name);
    }

    public static Whole integer(String name) {
        return new Whole(name);
    }

    public static Bool bool(String name) {
        return new Bool(name);
    }

    public static Timestamp timestamp(String name) {
        return new Timestamp(name);
    }

    public static JsonObject object(String name) {
        return new JsonObject(name);
    }

    /** The member's name in the JSON object. */
    public String name() {
        return name;
    }

    /** Absent, null (and, for strings, blank) values are refused with "{path} is required". */
    public F required() {
        this.required = true;
        return self();
    }

    /** The problem code of a response whose first error is this field's (default {@code validation_failed}). */
    public F code(String code) {
        this.code = code;
        return self();
    }

    /** Reads the member from {@code object}; problems are named by the member's name. */
    public T read(JsonNode object, Violations violations) {
        return read(object, name, violations);
    }

    /** Reads the member from a nested {@code object}; problems are named by {@code path} (e.g. cart.items[0].name). */
    public T read(JsonNode object, String path, Violations violations) {
        JsonNode value = object.get(name);
        if (value == null || value.isNull()) {
            if (required) {
                violations.reject(code, path, path + " is required");
            }
            return null;
        }
        return convert(value, path, violations);
    }

    abstract T convert(JsonNode value, String path, Violations violations);

    boolean isRequired() {
        return required;
    }

    /** Records a problem of this field and answers null, so converters can {@code return reject(...)}. */
    final T reject(Violations violations, String path, String message) {
        violations.reject(code, path, message);
        return null;
    }

    @SuppressWarnings("unchecked")
    private F self() {
        return (F) this;
    }

    private static final Pattern EMAIL =
            Pattern.compile("^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                    + "(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$");

    /** A JSON string of {@code min..max} characters (code points), optionally one of a set or of a shape. */
    public static final class Text extends Field<String, Text> {

        private int min = 0;
        private int max = 1000;
        private List<String> allowed;
        private Pattern pattern;
        private String patternMessage;
        private boolean httpUrl;

        Text(String name) {
            super(name);
        }

        /** Length bounds in characters; the default is 0-1000. */
        public Text length(int min, int max) {
            this.min = min;
            this.max = max;
            return this;
        }

        public Text oneOf(List<String> allowed) {
            this.allowed = List.copyOf(allowed);
            return this;
        }

        /** Refused with "{path} {message}" when the whole value does not match. */
        public Text matching(Pattern pattern, String message) {
            this.pattern = pattern;
            this.patternMessage = message;
            return this;
        }

        private Text httpUrl() {
            this.httpUrl = true;
            return this;
        }

        @Override
        String convert(JsonNode value, String path, Violations violations) {
            if (!value.isString()) {
                return reject(violations, path, path + " must be a string");
            }
            String text = value.asString();
            if (isRequired() && text.isBlank()) {
                return reject(violations, path, path + " is required");
            }
            int length = text.codePointCount(0, text.length());
            if (length < min || length > max) {
                return reject(
                        violations,
                        path,
                        min > 0
                                ? path + " must be " + min + "-" + max + " characters"
                                : path + " must be at most " + max + " characters");
            }
            if (allowed != null && !allowed.contains(text)) {
                return reject(violations, path, path + " must be one of " + String.join(", ", allowed));
            }
            if (pattern != null && !pattern.matcher(text).matches()) {
                return reject(violations, path, path + " " + patternMessage);
            }
            if (httpUrl && !isHttpUrl(text)) {
                return reject(violations, path, path + " must be a valid http or https URL");
            }
            return text;
        }

        static boolean isHttpUrl(String text) {
            try {
                URI uri = new URI(text);
                String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
                return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null;
            } catch (URISyntaxException e) {
                return false;
            }
        }
    }

    /**
     * An exact decimal amount: a JSON number (never a numeric string) with at most 18 fractional and 20 integer
     * digits (what {@code NUMERIC(38,18)} holds), positive unless {@link #allowZero()}. Read without trailing zeros.
     */
    public static final class Decimal extends Field<BigDecimal, Decimal> {

        private boolean allowZero;

        Decimal(String name) {
            super(name);
        }

        public Decimal allowZero() {
            this.allowZero = true;
            return this;
        }

        @Override
        BigDecimal convert(JsonNode value, String path, Violations violations) {
            if (!value.isNumber()) {
                return reject(violations, path, path + " must be a number");
            }
            BigDecimal number = value.decimalValue();
            // Judged before any arithmetic: normalising 1e100000000 would build a hundred-million-digit number.
            if (Amounts.integerDigits(number) > 20) {
                return number.signum() < 0
                        ? reject(violations, path, negativeMessage(path))
                        : reject(violations, path, path + " is too large");
            }
            number = Amounts.normalize(number);
            if (allowZero ? number.signum() < 0 : number.signum() <= 0) {
                return reject(violations, path, negativeMessage(path));
            }
            if (number.scale() > 18) {
                return reject(violations, path, path + " must have at most 18 decimal places");
            }
            return number;
        }

        private String negativeMessage(String path) {
            return path + (allowZero ? " must not be negative" : " must be greater than 0");
        }
    }

    /** A whole JSON number within {@code min..max} (2.0 is accepted, 2.5 is not); default 0..Integer.MAX_VALUE. */
    public static final class Whole extends Field<Integer, Whole> {

        private long min = 0;
        private long max = Integer.MAX_VALUE;

        Whole(String name) {
            super(name);
        }

        public Whole range(long min, long max) {
            this.min = min;
            this.max = max;
            return this;
        }

        @Override
        Integer convert(JsonNode value, String path, Violations violations) {
            if (!value.isNumber()) {
                return reject(violations, path, path + " must be a number");
            }
            BigDecimal number = value.decimalValue();
            if (Amounts.integerDigits(number) > 19) {
                return reject(violations, path, rangeMessage(path));
            }
            BigDecimal integral = Amounts.normalize(number);
            if (integral.scale() > 0) {
                return reject(violations, path, path + " must be an integer");
            }
            if (integral.compareTo(BigDecimal.valueOf(min)) < 0 || integral.compareTo(BigDecimal.valueOf(max)) > 0) {
                return reject(violations, path, rangeMessage(path));
            }
            return integral.intValueExact();
        }

        private String rangeMessage(String path) {
            return min == 1 && max == Integer.MAX_VALUE
                    ? path + " must be greater than 0"
                    : path + " must be between " + min + " and " + max;
        }
    }

    /** A JSON true or false. */
    public static final class Bool extends Field<Boolean, Bool> {

        Bool(String name) {
            super(name);
        }

        @Override
        Boolean convert(JsonNode value, String path, Violations violations) {
            if (!value.isBoolean()) {
                return reject(violations, path, path + " must be true or false");
            }
            return value.booleanValue();
        }
    }

    /** An ISO 8601 timestamp with a zone or offset, as a string of at most 64 characters. */
    public static final class Timestamp extends Field<Instant, Timestamp> {

        private final Text text;

        Timestamp(String name) {
            super(name);
            this.text = new Text(name).length(1, 64);
        }

        @Override
        Instant convert(JsonNode value, String path, Violations violations) {
            int before = violations.count();
            String string = text.convert(value, path, violations);
            if (violations.count() > before) {
                return null;
            }
            try {
                return OffsetDateTime.parse(string).toInstant();
            } catch (DateTimeParseException e) {
                return reject(
                        violations,
                        path,
                        path + " must be an ISO 8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z");
            }
        }
    }

    /** A JSON object, returned as a tree for the caller to read further or keep as free-form JSON. */
    public static final class JsonObject extends Field<JsonNode, JsonObject> {

        JsonObject(String name) {
            super(name);
        }

        @Override
        JsonNode convert(JsonNode value, String path, Violations violations) {
            return value.isObject() ? value : reject(violations, path, path + " must be an object");
        }
    }
}
