package dev.cryptopay.service.json;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.FieldError;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads typed fields out of a JSON object and collects one readable error per bad field, so a client learns about
 * every problem of a request at once. Null values count as absent.
 */
public final class JsonFields {

    private static final Pattern EMAIL =
            Pattern.compile("^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                    + "(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$");

    private final List<FieldError> errors = new ArrayList<>();

    public List<FieldError> errors() {
        return errors;
    }

    /** Throws the collected errors as one 400, its message the first error's; does nothing when there are none. */
    public void throwIfAny() {
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
    }

    public void reject(String field, String message) {
        errors.add(new FieldError(field, message));
    }

    public boolean present(JsonNode object, String field) {
        JsonNode value = object.get(field);
        return value != null && !value.isNull();
    }

    /** A string of {@code min..max} characters (code points), or null when absent and not required. */
    public String string(JsonNode object, String field, String path, boolean required, int min, int max) {
        if (!present(object, field)) {
            if (required) {
                reject(path, path + " is required");
            }
            return null;
        }
        JsonNode value = object.get(field);
        if (!value.isString()) {
            reject(path, path + " must be a string");
            return null;
        }
        String text = value.asString();
        int length = text.codePointCount(0, text.length());
        if (required && text.isBlank()) {
            reject(path, path + " is required");
            return null;
        }
        if (length < min || length > max) {
            reject(
                    path,
                    min > 0
                            ? path + " must be " + min + "-" + max + " characters"
                            : path + " must be at most " + max + " characters");
            return null;
        }
        return text;
    }

    /** A JSON number (never a numeric string). */
    public BigDecimal number(JsonNode object, String field, String path, boolean required) {
        if (!present(object, field)) {
            if (required) {
                reject(path, path + " is required");
            }
            return null;
        }
        JsonNode value = object.get(field);
        if (!value.isNumber()) {
            reject(path, path + " must be a number");
            return null;
        }
        return value.decimalValue();
    }

    /** A decimal with at most 18 fractional and 20 integer digits (what NUMERIC(38,18) holds). */
    public BigDecimal money(JsonNode object, String field, String path, boolean required, boolean allowZero) {
        BigDecimal value = number(object, field, path, required);
        if (value == null) {
            return null;
        }
        value = normalize(value);
        if (allowZero ? value.signum() < 0 : value.signum() <= 0) {
            reject(path, path + (allowZero ? " must not be negative" : " must be greater than 0"));
            return null;
        }
        if (value.scale() > 18) {
            reject(path, path + " must have at most 18 decimal places");
            return null;
        }
        if (value.precision() - value.scale() > 20) {
            reject(path, path + " is too large");
            return null;
        }
        return value;
    }

    /** An integer within {@code min..max}; 2.0 is accepted, 2.5 is not. */
    public Integer integer(JsonNode object, String field, String path, boolean required, long min, long max) {
        BigDecimal value = number(object, field, path, required);
        if (value == null) {
            return null;
        }
        BigDecimal integral = normalize(value);
        if (integral.scale() > 0) {
            reject(path, path + " must be an integer");
            return null;
        }
        if (integral.compareTo(BigDecimal.valueOf(min)) < 0 || integral.compareTo(BigDecimal.valueOf(max)) > 0) {
            reject(
                    path,
                    min == 1 && max == Integer.MAX_VALUE
                            ? path + " must be greater than 0"
                            : path + " must be between " + min + " and " + max);
            return null;
        }
        return integral.intValueExact();
    }

    public Boolean bool(JsonNode object, String field, String path) {
        if (!present(object, field)) {
            return null;
        }
        JsonNode value = object.get(field);
        if (!value.isBoolean()) {
            reject(path, path + " must be true or false");
            return null;
        }
        return value.booleanValue();
    }

    public Instant timestamp(JsonNode object, String field, String path) {
        String text = string(object, field, path, false, 1, 64);
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            reject(path, path + " must be an ISO 8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00Z");
            return null;
        }
    }

    public String email(JsonNode object, String field, String path) {
        String text = string(object, field, path, false, 3, 254);
        if (text != null && !EMAIL.matcher(text).matches()) {
            reject(path, path + " must be a valid e-mail address");
            return null;
        }
        return text;
    }

    /** An absolute http(s) URL of at most {@code max} characters. */
    public String url(JsonNode object, String field, String path, int max) {
        String text = string(object, field, path, false, 1, max);
        if (text != null && !isHttpUrl(text)) {
            reject(path, path + " must be a valid http or https URL");
            return null;
        }
        return text;
    }

    public JsonNode object(JsonNode object, String field, String path) {
        if (!present(object, field)) {
            return null;
        }
        JsonNode value = object.get(field);
        if (!value.isObject()) {
            reject(path, path + " must be an object");
            return null;
        }
        return value;
    }

    /** Refuses members a schema does not know, so a misspelt optional field is not silently ignored. */
    public void rejectUnknown(JsonNode object, String pathPrefix, List<String> known) {
        for (String name : object.propertyNames()) {
            if (!known.contains(name)) {
                String path = pathPrefix.isEmpty() ? name : pathPrefix + "." + name;
                reject(path, "Unknown field: " + path);
            }
        }
    }

    /** Parses a request body that must be a JSON object; anything else is a 400 saying what is wrong. */
    public static JsonNode parseObject(JsonMapper json, String body) {
        if (body == null || body.isBlank()) {
            throw ApiException.badRequest("invalid_request", "Request body is required");
        }
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (JacksonException e) {
            throw ApiException.badRequest("invalid_request", "Malformed JSON body");
        }
        if (root == null || !root.isObject()) {
            throw ApiException.badRequest("invalid_request", "Request body must be a JSON object");
        }
        return root;
    }

    public static boolean isHttpUrl(String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme();
            return scheme != null
                    && (scheme.toLowerCase(Locale.ROOT).equals("http")
                            || scheme.toLowerCase(Locale.ROOT).equals("https"))
                    && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }

    public static BigDecimal normalize(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }
}
