package dev.cryptopay.gateway.account;

import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.gateway.ratelimit.RateLimitProperties;
import dev.cryptopay.gateway.ratelimit.RouteGroup;
import dev.cryptopay.gateway.routing.FilterOrder;
import dev.cryptopay.gateway.routing.GatewayAttributes;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers {@code GET /api/v1/account} from the gateway itself: the calling key's merchant, mode, key prefix and the
 * rate limits in force for that key. Runs as the last filter of the account route, after authentication and the rate
 * limit, so the route never reaches a routing filter.
 */
public class AccountFilter implements GatewayFilter, Ordered {

    private final RateLimitProperties rateLimits;
    private final JsonMapper json;

    public AccountFilter(RateLimitProperties rateLimits, JsonMapper json) {
        this.rateLimits = rateLimits;
        this.json = json;
    }

    @Override
    public int getOrder() {
        return FilterOrder.ACCOUNT;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        ResolvedKey caller = GatewayAttributes.caller(exchange);
        if (caller == null) {
            return Mono.error(new IllegalStateException("account route reached without an authenticated key"));
        }
        AccountBody body = new AccountBody(
                caller.identity().merchantId(),
                caller.merchant().name(),
                caller.merchant().email(),
                caller.identity().mode().wireName(),
                caller.displayPrefix(),
                caller.merchant().createdAt(),
                limits());
        byte[] bytes = json.writeValueAsBytes(body);
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatus.OK);
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        response.getHeaders().setContentLength(bytes.length);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(bytes)));
    }

    /** The body of {@code GET /api/v1/account}. */
    record AccountBody(
            UUID merchantId,
            String name,
            String email,
            String mode,
            String apiKeyPrefix,
            Instant createdAt,
            Map<String, RateLimit> rateLimits) {}

    /**
     * One route group's limit: {@code limit} requests per {@code period_seconds}, per key (for
     * {@code public_link_payment}: per key and client address).
     */
    record RateLimit(int limit, long periodSeconds) {}

    /** The limits of the groups that count by key, in declaration order; empty when rate limiting is off. */
    private Map<String, RateLimit> limits() {
        Map<String, RateLimit> limits = new LinkedHashMap<>();
        if (!rateLimits.enabled()) {
            return limits;
        }
        for (RouteGroup group : RouteGroup.values()) {
            if (group.scope() != RouteGroup.Scope.CLIENT_IP) {
                limits.put(
                        group.wireName(),
                        new RateLimit(
                                rateLimits.limitOf(group), rateLimits.period().toSeconds()));
            }
        }
        return limits;
    }
}
