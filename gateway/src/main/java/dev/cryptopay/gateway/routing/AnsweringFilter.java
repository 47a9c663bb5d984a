package dev.cryptopay.gateway.routing;

import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.service.request.JsonBody;
import java.nio.charset.StandardCharsets;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The last filter of a route the gateway answers itself ({@code GET /account}, the merchant's keys and production
 * access, sign-up): it runs after authentication, the rate limit and the replay guard, answers JSON and never lets
 * the route reach a routing filter (such a route's {@code no://op} URI is never called). The body was already read
 * within {@code gateway.max-body-size} by authentication, which replays it; it is handed over as bytes.
 */
public abstract class AnsweringFilter implements GatewayFilter, Ordered {

    private final JsonMapper json;

    protected AnsweringFilter(JsonMapper json) {
        this.json = json;
    }

    /** What the route answers: a status and a body written as JSON (snake_case, the shared rules), or none. */
    public record Answer(HttpStatus status, Object body) {

        public static Answer ok(Object body) {
            return new Answer(HttpStatus.OK, body);
        }

        public static Answer created(Object body) {
            return new Answer(HttpStatus.CREATED, body);
        }

        /** 204, no body. */
        public static Answer noContent() {
            return new Answer(HttpStatus.NO_CONTENT, null);
        }
    }

    @Override
    public int getOrder() {
        return FilterOrder.ANSWER;
    }

    @Override
    public final Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        return DataBufferUtils.join(exchange.getRequest().getBody())
                .map(AnsweringFilter::bytes)
                .defaultIfEmpty(new byte[0])
                .flatMap(body -> answer(exchange, GatewayAttributes.caller(exchange), body))
                .flatMap(answer -> write(exchange.getResponse(), answer));
    }

    /**
     * @param caller the authenticated key on a signed route; null on a public one
     * @param body   the request body (empty when there is none)
     */
    protected abstract Mono<Answer> answer(ServerWebExchange exchange, ResolvedKey caller, byte[] body);

    /** The body as one JSON object (an empty body reads as {@code {}}); anything else is a 400 problem. */
    protected final JsonNode jsonObject(byte[] body) {
        return body.length == 0
                ? json.createObjectNode()
                : JsonBody.object(json, new String(body, StandardCharsets.UTF_8));
    }

    /** The caller of a signed route; its absence is a wiring mistake, never the client's. */
    protected static ResolvedKey required(ResolvedKey caller) {
        if (caller == null) {
            throw new IllegalStateException("a signed route was answered without an authenticated key");
        }
        return caller;
    }

    private Mono<Void> write(ServerHttpResponse response, Answer answer) {
        if (answer.body() == null) {
            response.setStatusCode(answer.status());
            return response.setComplete();
        }
        byte[] bytes = json.writeValueAsBytes(answer.body());
        response.setStatusCode(answer.status());
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        response.getHeaders().setContentLength(bytes.length);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(bytes)));
    }

    private static byte[] bytes(DataBuffer buffer) {
        try {
            byte[] bytes = new byte[buffer.readableByteCount()];
            buffer.read(bytes);
            return bytes;
        } finally {
            DataBufferUtils.release(buffer);
        }
    }
}
