package dev.cryptopay.service.request;

import dev.cryptopay.service.error.FieldError;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * The declared rules of one member of a JSON request object, e.g.
 * {@code Field.string("payment_name").required().length(1, 100)}. Declare fields once (as constants) and
 * {@link #read} them from each request: a bad value is recorded in {@link Violations} with the field's path, a
 * message naming it and the field's problem code, and read answers null. Null members count as absent. The
 * factories here answer one kind each, in its own file: {@link TextField}, {@link DecimalField}, {@link WholeField},
 * {@link UnsignedField}, {@link BoolField}, {@link TimestampField}, {@link ObjectField}.
 *
 * @param <T> the Java value the field reads
 * @param <F> the concrete field type, so the rule methods chain
 */
public abstract class Field<T, F extends Field<T, F>> {

    private final String name;
    private boolean required;
    private String code = FieldError.VALIDATION_FAILED;
    private volatile boolean read;

    Field(String name) {
        this.name = name;
    }

    public static TextField string(String name) {
        return new TextField(name);
    }

    /** A string of at most 254 characters shaped like an e-mail address. */
    public static TextField email(String name) {
        return new TextField(name).length(3, 254).matching(EMAIL, "must be a valid e-mail address");
    }

    /** An absolute http(s) URL. */
    public static TextField url(String name) {
        return new TextField(name).length(1, 2048).httpUrl();
    }

    /** A UUID in its canonical 8-4-4-4-12 form (either case), read as the string given. */
    public static TextField uuid(String name) {
        return new TextField(name).length(1, 100).satisfying(Field::isUuid, "must be a UUID");
    }

    static boolean isUuid(String text) {
        try {
            return java.util.UUID.fromString(text).toString().equalsIgnoreCase(text);
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }

    public static DecimalField money(String name) {
        return new DecimalField(name);
    }

    public static WholeField integer(String name) {
        return new WholeField(name);
    }

    /** A whole JSON number from 0 to 2^bits - 1, read exactly (for EVM uint types). */
    public static UnsignedField unsigned(String name, int bits) {
        return new UnsignedField(name, bits, false);
    }

    /** Like {@link #unsigned}, but given as a string of decimal digits (for raw token amounts up to uint256). */
    public static UnsignedField unsignedDigits(String name, int bits) {
        return new UnsignedField(name, bits, true);
    }

    public static BoolField bool(String name) {
        return new BoolField(name);
    }

    public static TimestampField timestamp(String name) {
        return new TimestampField(name);
    }

    public static ObjectField object(String name) {
        return new ObjectField(name);
    }

    /** The member's name in the JSON object. */
    public String name() {
        return name;
    }

    /** Absent, null (and, for strings, blank) values are refused with "{path} is required". */
    public F required() {
        declaring();
        this.required = true;
        return self();
    }

    /** The problem code of a response whose first error is this field's (default {@code validation_failed}). */
    public F code(String code) {
        declaring();
        this.code = code;
        return self();
    }

    /** Reads the member from {@code object}; problems are named by the member's name. */
    public T read(JsonNode object, Violations violations) {
        return read(object, name, violations);
    }

    /** Reads the member from a nested {@code object}; problems are named by {@code path} (e.g. cart.items[0].name). */
    public T read(JsonNode object, String path, Violations violations) {
        read = true;
        JsonNode value = object.get(name);
        if (value == null || value.isNull()) {
            if (required) {
                violations.reject(code, path, path + " is required");
            }
            return null;
        }
        return convert(value, path, violations);
    }

    /**
     * Reads the member of a PUT body: left out is {@link Patch#absent()}, JSON {@code null} is {@link Patch#clear()}
     * when the field is optional and a problem ("{name} cannot be null") when it is {@link #required()}, anything else
     * is converted as {@link #read} does (a bad value is recorded and answers absent).
     */
    public Patch<T> patch(JsonNode object, Violations violations) {
        read = true;
        JsonNode value = object.get(name);
        if (value == null) {
            return Patch.absent();
        }
        if (value.isNull()) {
            if (required) {
                violations.reject(code, name, name + " cannot be null; leave it out to keep its value");
                return Patch.absent();
            }
            return Patch.clear();
        }
        T converted = convert(value, name, violations);
        return converted == null ? Patch.absent() : Patch.of(converted);
    }

    /** The members' names, for {@link Violations#rejectUnknown}: a body's known members are its declared fields. */
    public static List<String> names(Field<?, ?>... fields) {
        return Arrays.stream(fields).map(Field::name).toList();
    }

    /** {@link #names(Field...)} and one member the body reads by hand (e.g. an array no declared field reads). */
    public static List<String> names(String readByHand, Field<?, ?>... fields) {
        return Stream.concat(Arrays.stream(fields).map(Field::name), Stream.of(readByHand))
                .toList();
    }

    abstract T convert(JsonNode value, String path, Violations violations);

    /**
     * Rules are declared once, before the first read: a field is a shared constant, so a rule added while handling
     * one request (e.g. {@code NAME.required().read(...)}) would silently apply to every later request.
     */
    final void declaring() {
        if (read) {
            throw new IllegalStateException("Field " + name + " was already read: declare its rules once, up front");
        }
    }

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
}
