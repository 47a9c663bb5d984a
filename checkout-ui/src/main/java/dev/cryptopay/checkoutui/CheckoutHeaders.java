package dev.cryptopay.checkoutui;

import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Security headers on every response of a customer page's routes (pages, JSON, streams, assets and errors alike): a
 * strict Content-Security-Policy that allows only this origin's scripts, stylesheets, requests and form posts and no
 * framing, {@code nosniff}, no referrer, {@code X-Frame-Options: DENY}, and {@code Cache-Control: no-store} unless
 * the route set its own (the assets do). A service declares one as a bean with the path roots its pages live under.
 */
public class CheckoutHeaders implements WebFilter, Ordered {

    /** No inline script or style anywhere: behaviour and looks come from the page's own files. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private final List<String> roots;

    /** @param roots path roots such as {@code /checkout}: the root itself and every path below it are covered */
    public CheckoutHeaders(String... roots) {
        this.roots = List.of(roots);
    }

    /** Before the internal-token check, so refusals carry the headers too. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!covers(exchange.getRequest().getPath().pathWithinApplication().value())) {
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

    /** Whether the path is one of the roots or below one. */
    public boolean covers(String path) {
        return roots.stream().anyMatch(root -> path.equals(root) || path.startsWith(root + "/"));
    }
}
