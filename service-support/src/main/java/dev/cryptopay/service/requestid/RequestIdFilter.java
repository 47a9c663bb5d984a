package dev.cryptopay.service.requestid;

import java.util.UUID;
import java.util.regex.Pattern;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Gives every request an id: the caller's {@code X-Request-Id} when it is a sane token (the gateway sets one),
 * otherwise a new UUID. The id is echoed on the response so a merchant can quote it to support.
 */
public class RequestIdFilter implements WebFilter, Ordered {

    private static final Pattern ACCEPTED = Pattern.compile("[A-Za-z0-9._:-]{8,128}");

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String offered = exchange.getRequest().getHeaders().getFirst(RequestIds.HEADER);
        String id = offered != null && ACCEPTED.matcher(offered).matches()
                ? offered
                : UUID.randomUUID().toString();
        exchange.getAttributes().put(RequestIds.ATTRIBUTE, id);
        exchange.getResponse().getHeaders().set(RequestIds.HEADER, id);
        return chain.filter(exchange);
    }
}
