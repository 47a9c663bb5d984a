package dev.cryptopay.gateway.ratelimit;

import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.gateway.routing.FilterOrder;
import dev.cryptopay.gateway.routing.GatewayAttributes;
import dev.cryptopay.service.error.ApiException;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Counts each request in its route group's bucket (per API key, per merchant_key or per client IP) after it was
 * authenticated, and sets {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining} and {@code X-RateLimit-Reset} on
 * the response. Over the limit: 429 with {@code Retry-After}. Bucket store unreachable: 503, never unlimited.
 */
public class RateLimitFilter implements GlobalFilter, Ordered {

    private static final Logger log = LoggerFactory.getLogger(RateLimitFilter.class);

    /** Counter name; tagged {@code group}. */
    public static final String REJECTED_METRIC = "gateway.ratelimit.rejected";

    public static final String LIMIT_HEADER = "X-RateLimit-Limit";
    public static final String REMAINING_HEADER = "X-RateLimit-Remaining";
    public static final String RESET_HEADER = "X-RateLimit-Reset";

    private final RateLimiter limiter;
    private final RateLimitProperties properties;
    private final ClientAddressResolver clientAddresses;
    private final MeterRegistry meters;

    public RateLimitFilter(
            RateLimiter limiter,
            RateLimitProperties properties,
            ClientAddressResolver clientAddresses,
            MeterRegistry meters) {
        this.limiter = limiter;
        this.properties = properties;
        this.clientAddresses = clientAddresses;
        this.meters = meters;
    }

    @Override
    public int getOrder() {
        return FilterOrder.RATE_LIMIT;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        RouteGroup group = GatewayAttributes.routeGroup(exchange);
        if (group == null || !properties.enabled()) {
            return chain.filter(exchange);
        }
        String subject;
        if (group.scope() == RouteGroup.Scope.CLIENT_IP) {
            subject = "ip:" + clientAddresses.resolve(exchange.getRequest());
        } else {
            ResolvedKey caller = GatewayAttributes.caller(exchange);
            if (caller == null) {
                return chain.filter(exchange); // cannot happen: keyed groups are only reached authenticated
            }
            subject = "key:" + caller.keyId();
        }
        int limit = properties.limitOf(group);
        // The limit and window are part of the key, so changing them starts fresh buckets instead of mixing configs.
        String bucketKey = "rl:" + group.wireName() + ":" + limit + "/"
                + properties.period().toSeconds() + "s:" + subject;
        return limiter.tryConsume(bucketKey, limit, properties.period())
                .onErrorMap(e -> {
                    log.error("Rate limiter unavailable, refusing request (fail closed): {}", e.toString());
                    return new ApiException(
                            HttpStatus.SERVICE_UNAVAILABLE,
                            "rate_limiter_unavailable",
                            "Rate limiting is temporarily unavailable; retry shortly");
                })
                .flatMap(decision -> {
                    HttpHeaders headers = exchange.getResponse().getHeaders();
                    headers.set(LIMIT_HEADER, Long.toString(decision.limit()));
                    headers.set(REMAINING_HEADER, Long.toString(decision.remaining()));
                    headers.set(RESET_HEADER, Long.toString(decision.resetSeconds()));
                    if (decision.allowed()) {
                        return chain.filter(exchange);
                    }
                    meters.counter(REJECTED_METRIC, "group", group.wireName()).increment();
                    headers.set(HttpHeaders.RETRY_AFTER, Long.toString(decision.retryAfterSeconds()));
                    return Mono.error(new ApiException(
                            HttpStatus.TOO_MANY_REQUESTS,
                            "rate_limited",
                            "Rate limit exceeded for " + group.wireName() + " (" + limit + " requests per "
                                    + properties.period().toSeconds() + " s); retry in "
                                    + decision.retryAfterSeconds() + " s"));
                });
    }
}
