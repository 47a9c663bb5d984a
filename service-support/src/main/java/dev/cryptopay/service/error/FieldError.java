package dev.cryptopay.service.error;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * One rejected input field and why. {@code code} is the problem code the response carries when this is the first
 * error; it is chosen where the field is rejected and not rendered inside the {@code errors} list.
 */
public record FieldError(
        String field, String message, @JsonIgnore String code) {

    public static final String VALIDATION_FAILED = "validation_failed";

    public FieldError(String field, String message) {
        this(field, message, VALIDATION_FAILED);
    }
}
