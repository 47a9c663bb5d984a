package dev.cryptopay.gateway.ratelimit;

import dev.cryptopay.gateway.routing.FilterOrder;
import dev.cryptopay.gateway.routing.RouteAccess;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Counts every request to an authenticated route (signed, or with a {@code merchant_key}) per client address
 * <em>before</em> its signature is checked or its key looked up. A flood of made-up API keys or signatures from one
 * address is then refused with 429 before it costs a key-registry query or a signature verification, so it cannot
 * exhaust the registry's database pool for everyone else. The limit ({@code pre_auth}, default 1,200 per minute) is
 * well above what the per-key limits allow one merchant's keys together; IPv6 clients count per /64.
 */
public class PreAuthLimitFilter implements GlobalFilter, Ordered {

    private final LimitEnforcer enforcer;
    private final RateLimitProperties properties;
    private final ClientAddressResolver clientAddresses;

    public PreAuthLimitFilter(
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
        return FilterOrder.PRE_AUTH_LIMIT;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        RouteAccess access = RouteAccess.of(route);
        if (!properties.enabled() || (access != RouteAccess.SIGNED && access != RouteAccess.MERCHANT_KEY)) {
            return chain.filter(exchange);
        }
        String subject = "ip:" + clientAddresses.bucketOf(exchange.getRequest());
        return enforcer.enforce(
                exchange, RouteGroup.PRE_AUTH, subject, false, Mono.defer(() -> chain.filter(exchange)));
    }
}
