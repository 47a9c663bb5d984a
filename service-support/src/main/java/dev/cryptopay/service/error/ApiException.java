package dev.cryptopay.service.error;

import java.util.List;
import org.springframework.http.HttpStatus;

/**
 * A failure the client should see as it is: status, stable snake_case code, human message and optional field errors.
 * Thrown from handlers and aggregates; turned into the problem body in one place ({@link ProblemExceptionHandler}).
 */
public class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String code;
    private final List<FieldError> errors;

    public ApiException(HttpStatus status, String code, String message, List<FieldError> errors) {
        super(message);
        this.status = status;
        this.code = code;
        this.errors = List.copyOf(errors);
    }

    public ApiException(HttpStatus status, String code, String message) {
        this(status, code, message, List.of());
    }

    public static ApiException badRequest(String code, String message) {
        return new ApiException(HttpStatus.BAD_REQUEST, code, message);
    }

    /** A validation failure on one field; the field error repeats the message. */
    public static ApiException invalidField(String code, String field, String message) {
        return new ApiException(HttpStatus.BAD_REQUEST, code, message, List.of(new FieldError(field, message, code)));
    }

    /** Several rejected fields at once; the message and the code are the first error's. */
    public static ApiException validation(List<FieldError> errors) {
        if (errors.isEmpty()) {
            return new ApiException(HttpStatus.BAD_REQUEST, FieldError.VALIDATION_FAILED, "Validation failed");
        }
        FieldError first = errors.get(0);
        return new ApiException(HttpStatus.BAD_REQUEST, first.code(), first.message(), errors);
    }

    public static ApiException notFound(String message) {
        return new ApiException(HttpStatus.NOT_FOUND, "not_found", message);
    }

    public static ApiException conflict(String code, String message) {
        return new ApiException(HttpStatus.CONFLICT, code, message);
    }

    public static ApiException unauthorized(String code, String message) {
        return new ApiException(HttpStatus.UNAUTHORIZED, code, message);
    }

    public HttpStatus status() {
        return status;
    }

    public String code() {
        return code;
    }

    public List<FieldError> errors() {
        return errors;
    }
}
