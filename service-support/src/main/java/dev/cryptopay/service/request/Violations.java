package dev.cryptopay.service.request;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.FieldError;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The problems found in one request, collected so a client learns about every bad field at once. The response's
 * message and code are the first problem's.
 */
public final class Violations {

    private final List<FieldError> errors = new ArrayList<>();

    /** A problem with the generic {@code validation_failed} code. */
    public void reject(String field, String message) {
        reject(FieldError.VALIDATION_FAILED, field, message);
    }

    /** A problem with its own code (e.g. {@code invalid_currency}), used when it is the first one. */
    public void reject(String code, String field, String message) {
        errors.add(new FieldError(field, message, code));
    }

    /** Refuses members the request does not know, so a misspelt optional field is not silently ignored. */
    public void rejectUnknown(JsonNode object, String pathPrefix, Collection<String> known) {
        for (String name : object.propertyNames()) {
            if (!known.contains(name)) {
                String path = pathPrefix.isEmpty() ? name : pathPrefix + "." + name;
                reject(path, "Unknown field: " + path);
            }
        }
    }

    public List<FieldError> errors() {
        return List.copyOf(errors);
    }

    public int count() {
        return errors.size();
    }

    public boolean isEmpty() {
        return errors.isEmpty();
    }

    /** Throws the collected problems as one 400; does nothing when there are none. */
    public void throwIfAny() {
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
    }
}
