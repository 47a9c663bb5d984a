package dev.cryptopay.gateway.ratelimit;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.requestid.RequestIds;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Takes one request from a group's bucket for a subject and answers the way every limit does: over the limit 429 with
 * {@code Retry-After} and the {@code X-RateLimit-*} headers; bucket store unreachable 503 (fail closed, never
 * unlimited).
 */
final class LimitEnforcer {

    private static final Logger log = LoggerFactory.getLogger(LimitEnforcer.class);

    private final RateLimiter limiter;
    private final RateLimitProperties properties;
    private final MeterRegistry meters;

    LimitEnforcer(RateLimiter limiter, RateLimitProperties properties, MeterRegistry meters) {
        this.limiter = limiter;
        this.properties = properties;
        this.meters = meters;
    }

    /**
     * @param headersWhenAllowed whether an admitted request carries this bucket's {@code X-RateLimit-*} headers
     * @param next               what runs when the request is admitted
     */
    Mono<Void> enforce(
            ServerWebExchange exchange, RouteGroup group, String subject, boolean headersWhenAllowed, Mono<Void> next) {
        int limit = properties.limitOf(group);
        // The limit and window are part of the key, so changing them starts fresh buckets instead of mixing configs.
        String bucketKey = "rl:" + group.wireName() + ":" + limit + "/"
                + properties.period().toSeconds() + "s:" + subject;
        return limiter.tryConsume(bucketKey, limit, properties.period())
                .onErrorMap(e -> {
                    log.error(
                            "Rate limiter unavailable, refusing request (fail closed) request_id={}: {}",
                            RequestIds.of(exchange),
                            e.toString());
                    return new ApiException(
                            HttpStatus.SERVICE_UNAVAILABLE,
                            "rate_limiter_unavailable",
                            "Rate limiting is temporarily unavailable; retry shortly");
                })
                .flatMap(decision -> {
                    if (decision.allowed() && !headersWhenAllowed) {
                        return next;
                    }
                    HttpHeaders headers = exchange.getResponse().getHeaders();
                    headers.set(RateLimitFilter.LIMIT_HEADER, Long.toString(decision.limit()));
                    headers.set(RateLimitFilter.REMAINING_HEADER, Long.toString(decision.remaining()));
                    headers.set(RateLimitFilter.RESET_HEADER, Long.toString(decision.resetSeconds()));
                    if (decision.allowed()) {
                        return next;
                    }
                    meters.counter(RateLimitFilter.REJECTED_METRIC, "group", group.wireName())
                            .increment();
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
