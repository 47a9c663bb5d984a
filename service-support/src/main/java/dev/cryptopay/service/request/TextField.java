package dev.cryptopay.service.request;

import dev.cryptopay.service.text.Storable;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/** A JSON string of {@code min..max} characters (code points), optionally one of a set or of a shape. */
public final class TextField extends Field<String, TextField> {

    private int min = 0;
    private int max = 1000;
    private List<String> allowed;
    private Pattern pattern;
    private String patternMessage;
    private boolean httpUrl;
    private Predicate<String> rule;
    private String ruleMessage;

    TextField(String name) {
        super(name);
    }

    /** Length bounds in characters; the default is 0-1000. */
    public TextField length(int min, int max) {
        declaring();
        this.min = min;
        this.max = max;
        return this;
    }

    public TextField oneOf(List<String> allowed) {
        declaring();
        this.allowed = List.copyOf(allowed);
        return this;
    }

    /** Refused with "{path} {message}" when the whole value does not match. */
    public TextField matching(Pattern pattern, String message) {
        declaring();
        this.pattern = pattern;
        this.patternMessage = message;
        return this;
    }

    /** Refused with "{path} {message}" when the rule does not hold (checked after the length and shape). */
    public TextField satisfying(Predicate<String> rule, String message) {
        declaring();
        this.rule = rule;
        this.ruleMessage = message;
        return this;
    }

    TextField httpUrl() {
        this.httpUrl = true;
        return this;
    }

    @Override
    String convert(JsonNode value, String path, Violations violations) {
        if (!value.isString()) {
            return reject(violations, path, path + " must be a string");
        }
        String text = value.asString();
        if (Storable.hasNul(text)) {
            return reject(violations, path, path + " must not contain NUL characters");
        }
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
        if (rule != null && !rule.test(text)) {
            return reject(violations, path, path + " " + ruleMessage);
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
