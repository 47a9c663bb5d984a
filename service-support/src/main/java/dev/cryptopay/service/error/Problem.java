package dev.cryptopay.service.error;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.springframework.http.HttpStatus;

/**
 * The error body: RFC 9457 members plus {@code code} (stable, snake_case), {@code message} (repeats {@code detail}
 * for clients of the {@code {message, data}} envelope), optional field {@code errors} and the {@code request_id}.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(
        String type,
        String title,
        int status,
        String detail,
        String code,
        String message,
        List<FieldError> errors,
        @JsonProperty("request_id") String requestId) {

    public static Problem of(
            HttpStatus status, String code, String message, List<FieldError> errors, String requestId) {
        return new Problem(
                "about:blank", status.getReasonPhrase(), status.value(), message, code, message, errors, requestId);
    }
}
