package dev.cryptopay.client;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An error answer of the API: its HTTP status and, from the {@code application/problem+json} body, the stable
 * {@code code} to branch on, the {@code message}, every rejected field and the {@code request_id} to quote to
 * support. An answer that is not a problem (a proxy's page, say) gets the code {@code http_<status>}.
 */
public class CryptoPayException extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int MAX_TEXT = 500;

    /** One rejected field of a request. */
    public record FieldError(String field, String message) {}

    private final int status;
    private final String code;
    private final String requestId;
    private final transient List<FieldError> errors;
    private final transient Duration retryAfter;
    private final String body;

    CryptoPayException(
            int status,
            String code,
            String message,
            String requestId,
            List<FieldError> errors,
            Duration retryAfter,
            String body) {
        super(status + " " + code + ": " + message + (requestId == null ? "" : " (request " + requestId + ")"));
        this.status = status;
        this.code = code;
        this.requestId = requestId;
        this.errors = List.copyOf(errors);
        this.retryAfter = retryAfter;
        this.body = body;
    }

    /** Reads an error answer; never throws on a malformed body. */
    static CryptoPayException from(int status, HttpHeaders headers, String body) {
        String requestId = headers.firstValue("X-Request-Id").orElse(null);
        Duration retryAfter = RetryPolicy.retryAfter(headers).orElse(null);
        JsonNode problem = parse(body);
        if (problem == null || !problem.isObject()) {
            String text = body.isBlank() ? "no body" : body.strip();
            return new CryptoPayException(
                    status, "http_" + status, truncate(text), requestId, List.of(), retryAfter, body);
        }
        String code = text(problem, "code").orElse("http_" + status);
        String message = text(problem, "message")
                .or(() -> text(problem, "detail"))
                .or(() -> text(problem, "title"))
                .orElse("no message");
        List<FieldError> errors = problem.path("errors").isArray()
                ? problem.path("errors")
                        .valueStream()
                        .filter(JsonNode::isObject)
                        .map(error -> new FieldError(
                                text(error, "field").orElse(null),
                                text(error, "message").orElse(null)))
                        .toList()
                : List.of();
        return new CryptoPayException(
                status, code, message, text(problem, "request_id").orElse(requestId), errors, retryAfter, body);
    }

    /** The HTTP status. */
    public int status() {
        return status;
    }

    /** The stable snake_case error code, such as {@code validation_failed} or {@code rate_limited}. */
    public String code() {
        return code;
    }

    /** The request's id in the platform's logs, when the answer named one. */
    public Optional<String> requestId() {
        return Optional.ofNullable(requestId);
    }

    /** Every rejected field; empty when the error is not about fields. */
    public List<FieldError> errors() {
        return errors;
    }

    /** How long to wait before sending again, when the answer said ({@code Retry-After}). */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** The answer's body as received. */
    public String body() {
        return body;
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isString() && !value.asString().isBlank()
                ? Optional.of(value.asString())
                : Optional.empty();
    }

    private static String truncate(String text) {
        return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT) + "…";
    }
}
