package dev.cryptopay.gateway.observability;

import dev.cryptopay.gateway.routing.GatewayAttributes;
import dev.cryptopay.service.requestid.RequestIds;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

/**
 * One structured line per request on logger {@code dev.cryptopay.gateway.access}: method, path (no query: it may
 * carry customer data), status, latency to the response headers, API key prefix and request id. Never signatures,
 * bodies or full keys. Logged when the response is committed, because errors are rendered by the exception handler
 * after this filter's chain has finished.
 */
public class AccessLogFilter implements WebFilter, Ordered {

    private static final Logger log = LoggerFactory.getLogger("dev.cryptopay.gateway.access");

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 1; // right after the request id is assigned
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        long started = System.nanoTime();
        AtomicBoolean logged = new AtomicBoolean();
        exchange.getResponse().beforeCommit(() -> {
            if (logged.compareAndSet(false, true)) {
                write(exchange, exchange.getResponse().getStatusCode(), started);
            }
            return Mono.empty();
        });
        return chain.filter(exchange).doFinally(signal -> {
            // A client that hung up before any response: nothing gets committed, log it anyway.
            if (signal == SignalType.CANCEL && logged.compareAndSet(false, true)) {
                write(exchange, null, started); // status "-": the client went away first
            }
        });
    }

    private static void write(ServerWebExchange exchange, HttpStatusCode status, long started) {
        if (!log.isInfoEnabled()) {
            return;
        }
        String keyPrefix = exchange.getAttribute(GatewayAttributes.KEY_PREFIX);
        long latencyMs = (System.nanoTime() - started) / 1_000_000;
        log.info(
                "access method={} path={} status={} latency_ms={} key={} request_id={}",
                exchange.getRequest().getMethod().name(),
                exchange.getRequest().getPath().value(),
                status == null ? "-" : status.value(),
                latencyMs,
                keyPrefix == null ? "-" : keyPrefix,
                RequestIds.of(exchange));
    }
}
