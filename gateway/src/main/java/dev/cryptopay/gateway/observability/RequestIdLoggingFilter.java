package dev.cryptopay.gateway.observability;

import dev.cryptopay.service.requestid.RequestIds;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ThreadLocalAccessor;
import org.slf4j.MDC;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Puts the request id into the Reactor context under {@value #MDC_KEY}; with {@code spring.reactor.context-propagation
 * =auto} Reactor copies it into the logging MDC on whichever thread runs the request, so every log line written while
 * handling it (ours and the frameworks') shows the id through {@code logging.pattern.correlation}.
 */
public class RequestIdLoggingFilter implements WebFilter, Ordered {

    /** MDC and Reactor context key. */
    public static final String MDC_KEY = "request_id";

    static {
        ContextRegistry.getInstance().registerThreadLocalAccessor(new ThreadLocalAccessor<String>() {
            @Override
            public Object key() {
                return MDC_KEY;
            }

            @Override
            public String getValue() {
                return MDC.get(MDC_KEY);
            }

            @Override
            public void setValue(String value) {
                MDC.put(MDC_KEY, value);
            }

            @Override
            public void setValue() {
                MDC.remove(MDC_KEY);
            }
        });
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 2; // after the request id is assigned
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String requestId = RequestIds.of(exchange);
        if (requestId == null) {
            return chain.filter(exchange);
        }
        return chain.filter(exchange).contextWrite(context -> context.put(MDC_KEY, requestId));
    }
}
