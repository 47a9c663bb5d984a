package dev.cryptopay.service.error;

import dev.cryptopay.service.requestid.RequestIds;
import java.util.List;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** Writes a {@link Problem} as {@code application/problem+json}; used by the exception handler and by web filters. */
public final class ProblemWriter {

    private final JsonMapper json;

    public ProblemWriter(JsonMapper json) {
        this.json = json;
    }

    public Mono<Void> write(ServerWebExchange exchange, ApiException failure) {
        return write(exchange, failure.status(), failure.code(), failure.getMessage(), failure.errors());
    }

    public Mono<Void> write(
            ServerWebExchange exchange, HttpStatus status, String code, String message, List<FieldError> errors) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.empty();
        }
        Problem problem = Problem.of(status, code, message, errors, RequestIds.of(exchange));
        byte[] bytes = json.writeValueAsBytes(problem);
        response.setStatusCode(status);
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        response.getHeaders().setContentLength(bytes.length);
        DataBuffer buffer = response.bufferFactory().wrap(bytes);
        return response.writeWith(Mono.just(buffer));
    }
}
