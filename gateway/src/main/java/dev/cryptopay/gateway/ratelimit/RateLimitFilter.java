package dev.cryptopay.gateway.ratelimit;

import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.gateway.routing.FilterOrder;
import dev.cryptopay.gateway.routing.GatewayAttributes;
import dev.cryptopay.gateway.routing.RouteAccess;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Counts each request of one of our routes in its route group's bucket ({@link RouteGroups}: per API key, per
 * merchant_key and client address, or per client IP) after it was authenticated, then in the group's per-key ceiling
 * if it has one, and sets {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining} and {@code X-RateLimit-Reset} on
 * the response. Over the limit: 429 with {@code Retry-After}. Bucket store unreachable: 503, never unlimited.
 */
public class RateLimitFilter implements GlobalFilter, Ordered {

    /** Counter name; tagged {@code group}. */
    public static final String REJECTED_METRIC = "gateway.ratelimit.rejected";

    public static final String LIMIT_HEADER = "X-RateLimit-Limit";
    public static final String REMAINING_HEADER = "X-RateLimit-Remaining";
    public static final String RESET_HEADER = "X-RateLimit-Reset";

    private final LimitEnforcer enforcer;
    private final RateLimitProperties properties;
    private final ClientAddressResolver clientAddresses;

    public RateLimitFilter(
            RateLimiter limiter,
            RateLimitProperties properties,
            ClientAddressResolver clientAddresses,
            MeterRegistry meters) {
        this.enforcer = new LimitEnforcer(limiter, properties, meters);
        this.properties = properties;
        this.clientAddresses = clientAddresses;
    }

    @Override
    public int getOrder() {
        return FilterOrder.RATE_LIMIT;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        if (RouteAccess.of(route) == null || !properties.enabled()) {
            return chain.filter(exchange);
        }
        ServerHttpRequest request = exchange.getRequest();
        RouteGroup group = RouteGroups.classify(
                route.getId(),
                request.getMethod(),
                GatewayAttributes.relativePath(request.getPath().value()));
        if (group.scope() == RouteGroup.Scope.CLIENT_IP) {
            String subject = "ip:" + clientAddresses.bucketOf(request);
            return enforcer.enforce(exchange, group, subject, true, Mono.defer(() -> chain.filter(exchange)));
        }
        ResolvedKey caller = GatewayAttributes.caller(exchange);
        if (caller == null) {
            return chain.filter(exchange); // cannot happen: keyed groups are only reached authenticated
        }
        String key = "key:" + caller.keyId();
        String subject = group.scope() == RouteGroup.Scope.API_KEY_AND_CLIENT_IP
                ? key + ":ip:" + clientAddresses.bucketOf(request)
                : key;
        RouteGroup ceiling = group.keyCeiling();
        Mono<Void> next = Mono.defer(() -> chain.filter(exchange));
        // The client's own bucket first: a client over its own limit never draws from the key's shared ceiling. The
        // response shows the client's bucket, or the ceiling's when the ceiling refuses.
        Mono<Void> admitted =
                ceiling == null ? next : Mono.defer(() -> enforcer.enforce(exchange, ceiling, key, false, next));
        return enforcer.enforce(exchange, group, subject, true, admitted);
    }
}
