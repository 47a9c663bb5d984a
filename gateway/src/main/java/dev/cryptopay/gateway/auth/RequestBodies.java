package dev.cryptopay.gateway.auth;

import dev.cryptopay.service.error.ApiException;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Reads a request body once, within the size limit, and hands back the bytes plus an exchange whose request replays
 * exactly those bytes downstream: the signature is checked over what the service will receive.
 */
public final class RequestBodies {

    private RequestBodies() {}

    /** The body bytes and the exchange to continue with. */
    public record CachedBody(byte[] bytes, ServerWebExchange exchange) {}

    public static Mono<CachedBody> read(ServerWebExchange exchange, int maxBytes) {
        ServerHttpRequest request = exchange.getRequest();
        long declared = request.getHeaders().getContentLength();
        if (declared > maxBytes) {
            return Mono.error(tooLarge(maxBytes));
        }
        return DataBufferUtils.join(request.getBody(), maxBytes)
                .map(RequestBodies::toBytes)
                .defaultIfEmpty(new byte[0])
                .onErrorMap(DataBufferLimitException.class, e -> tooLarge(maxBytes))
                .map(bytes -> new CachedBody(
                        bytes,
                        exchange.mutate()
                                .request(replaying(request, bytes, exchange))
                                .build()));
    }

    private static ServerHttpRequest replaying(ServerHttpRequest request, byte[] bytes, ServerWebExchange exchange) {
        return new ServerHttpRequestDecorator(request) {
            @Override
            public Flux<DataBuffer> getBody() {
                if (bytes.length == 0) {
                    return Flux.empty();
                }
                // A fresh wrapper per subscription, so a retry or a second reader sees the whole body again.
                return Flux.defer(
                        () -> Flux.just(exchange.getResponse().bufferFactory().wrap(bytes)));
            }
        };
    }

    private static byte[] toBytes(DataBuffer buffer) {
        try {
            byte[] bytes = new byte[buffer.readableByteCount()];
            buffer.read(bytes);
            return bytes;
        } finally {
            DataBufferUtils.release(buffer);
        }
    }

    private static ApiException tooLarge(int maxBytes) {
        return new ApiException(
                HttpStatus.CONTENT_TOO_LARGE,
                "payload_too_large",
                "Request body is too large (limit " + maxBytes + " bytes)");
    }
}
