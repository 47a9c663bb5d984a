package dev.cryptopay.paymentlinks.checkout;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Security headers on every response under {@code /checkout/} (pages, JSON, streams, assets and errors alike): a
 * strict Content-Security-Policy that allows only this origin's script, stylesheet and requests and no framing,
 * {@code nosniff}, no referrer, and {@code Cache-Control: no-store} unless the route set its own (the assets do).
 */
@Component
class CheckoutSecurityHeaders implements WebFilter, Ordered {

    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    /** Before the internal-token check, so refusals carry the headers too. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!exchange.getRequest().getPath().pathWithinApplication().value().startsWith("/checkout/")) {
            return chain.filter(exchange);
        }
        exchange.getResponse().beforeCommit(() -> {
            HttpHeaders headers = exchange.getResponse().getHeaders();
            headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
            headers.set("X-Content-Type-Options", "nosniff");
            headers.set("Referrer-Policy", "no-referrer");
            headers.set("X-Frame-Options", "DENY");
            if (!headers.containsHeader(HttpHeaders.CACHE_CONTROL)) {
                headers.setCacheControl("no-store");
            }
            return Mono.empty();
        });
        return chain.filter(exchange);
    }
}
