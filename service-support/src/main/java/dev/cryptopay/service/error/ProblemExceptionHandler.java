package dev.cryptopay.service.error;

import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.codec.DecodingException;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.bind.support.WebExchangeBindException;
import org.springframework.web.server.MethodNotAllowedException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * Turns every failure into the one problem body. Runs before Spring Boot's own error handler so no HTML page or
 * framework error JSON ever reaches a client; anything unexpected becomes an opaque 500 logged with the request id.
 * An application with failures of its own kind passes {@link FailureMapping}s, asked before the shared mappings.
 */
public class ProblemExceptionHandler implements WebExceptionHandler, Ordered {

    private static final Logger log = LoggerFactory.getLogger(ProblemExceptionHandler.class);

    private final ProblemWriter writer;
    private final List<FailureMapping> mappings;

    public ProblemExceptionHandler(ProblemWriter writer) {
        this(writer, List.of());
    }

    /** @param mappings the application's own failures, asked in order after {@link ApiException} is let through */
    public ProblemExceptionHandler(ProblemWriter writer, List<FailureMapping> mappings) {
        this.writer = writer;
        this.mappings = List.copyOf(mappings);
    }

    @Override
    public int getOrder() {
        return -2;
    }

    /**
     * Seconds a client is asked to wait after a 503. Every 503 here is a briefly missing dependency (database, key
     * registry, rate limiter, upstream), so every one says when to come back.
     */
    static final int RETRY_AFTER_SECONDS = 2;

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable failure) {
        ApiException answer = toApiException(exchange, failure);
        HttpHeaders headers = exchange.getResponse().getHeaders();
        if (answer.status() == HttpStatus.SERVICE_UNAVAILABLE
                && !exchange.getResponse().isCommitted()
                && !headers.containsHeader(HttpHeaders.RETRY_AFTER)) {
            headers.set(HttpHeaders.RETRY_AFTER, Integer.toString(RETRY_AFTER_SECONDS));
        }
        return writer.write(exchange, answer);
    }

    static final String DATABASE_UNAVAILABLE = "database_unavailable";

    /** What the client sees: an {@link ApiException} as it is, else the first mapping's answer, else the shared one. */
    protected ApiException toApiException(ServerWebExchange exchange, Throwable failure) {
        if (failure instanceof ApiException api) {
            return api;
        }
        for (FailureMapping mapping : mappings) {
            ApiException answer = mapping.map(exchange, failure);
            if (answer != null) {
                return answer;
            }
        }
        if (Failures.causedBy(failure, DataBufferLimitException.class)) {
            return new ApiException(HttpStatus.CONTENT_TOO_LARGE, "payload_too_large", "Request body is too large");
        }
        if (failure instanceof WebExchangeBindException bind) {
            List<FieldError> errors = bind.getFieldErrors().stream()
                    .map(error -> new FieldError(snakeCase(error.getField()), error.getDefaultMessage()))
                    .toList();
            return ApiException.validation(errors);
        }
        if (failure instanceof ServerWebInputException input) {
            return ApiException.badRequest("invalid_request", describe(input));
        }
        if (failure instanceof UnsupportedMediaTypeStatusException) {
            return new ApiException(
                    HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                    "unsupported_media_type",
                    "Content-Type must be application/json");
        }
        if (failure instanceof MethodNotAllowedException notAllowed) {
            return new ApiException(
                    HttpStatus.METHOD_NOT_ALLOWED,
                    "method_not_allowed",
                    "Method " + notAllowed.getHttpMethod() + " is not allowed here");
        }
        if (failure instanceof ResponseStatusException status) {
            return fromStatus(exchange, status.getStatusCode(), status.getReason());
        }
        if (failure instanceof DataIntegrityViolationException) {
            return ApiException.conflict("conflict", "The request conflicts with an existing resource");
        }
        if (Failures.databaseUnavailable(failure)) {
            log.warn("Database unavailable on {}: {}", Failures.where(exchange), failure.toString());
            return new ApiException(
                    HttpStatus.SERVICE_UNAVAILABLE,
                    DATABASE_UNAVAILABLE,
                    "The service cannot reach its database right now; retry shortly");
        }
        log.error("Unhandled failure on {}", Failures.where(exchange), failure);
        return new ApiException(HttpStatus.INTERNAL_SERVER_ERROR, "internal_error", "Internal server error");
    }

    private static ApiException fromStatus(ServerWebExchange exchange, HttpStatusCode code, String reason) {
        HttpStatus status = HttpStatus.resolve(code.value());
        if (status == null) {
            status = HttpStatus.INTERNAL_SERVER_ERROR;
        }
        if (status == HttpStatus.NOT_FOUND) {
            return ApiException.notFound("No route for " + exchange.getRequest().getMethod() + " "
                    + exchange.getRequest().getPath().value());
        }
        if (status.is5xxServerError()) {
            return new ApiException(status, snakeCase(status.name()), status.getReasonPhrase());
        }
        return new ApiException(status, snakeCase(status.name()), reason != null ? reason : status.getReasonPhrase());
    }

    private static String describe(ServerWebInputException input) {
        if (Failures.causedBy(input, DecodingException.class)) {
            return "Malformed JSON body or a field of the wrong type";
        }
        if (input.getMethodParameter() != null && input.getReason() != null) {
            return input.getReason();
        }
        return "Invalid request";
    }

    static String snakeCase(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }
}
