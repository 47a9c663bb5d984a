package dev.cryptopay.gateway.apidocs;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Security headers of the API reference ({@code /docs}) and of the Swagger UI files it loads, the stock
 * {@code /webjars/swagger-ui/index.html} included. They share the gateway's origin with the dashboard, where a
 * merchant's remembered key lives, so a script they were made to run must not be able to do anything there: only the
 * origin's own scripts run (no inline script, no eval), only the origin is reached, and no other site may frame them.
 * Inline styles are allowed (Swagger UI sets some); nothing else inline.
 */
public class ApiDocsHeaders implements WebFilter, Ordered {

    static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline';"
            + " img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none';"
            + " form-action 'none'; frame-ancestors 'none'";

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 20;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String path = exchange.getRequest().getPath().value();
        if (path.equals("/docs") || path.startsWith("/docs/") || path.startsWith("/webjars/")) {
            HttpHeaders headers = exchange.getResponse().getHeaders();
            headers.set("Content-Security-Policy", POLICY);
            headers.set("X-Frame-Options", "DENY");
            headers.set("X-Content-Type-Options", "nosniff");
            headers.set("Referrer-Policy", "no-referrer");
        }
        return chain.filter(exchange);
    }
}
