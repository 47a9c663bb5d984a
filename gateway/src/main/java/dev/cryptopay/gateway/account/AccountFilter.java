package dev.cryptopay.gateway.account;

import dev.cryptopay.gateway.keys.KeyScope;
import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.gateway.ratelimit.RateLimitProperties;
import dev.cryptopay.gateway.ratelimit.RouteGroup;
import dev.cryptopay.gateway.routing.AnsweringFilter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers {@code GET /api/v1/account} from the gateway itself: the calling key's merchant, mode, key prefix, scopes
 * and the rate limits in force for that key.
 */
public class AccountFilter extends AnsweringFilter {

    private final RateLimitProperties rateLimits;

    public AccountFilter(RateLimitProperties rateLimits, JsonMapper json) {
        super(json);
        this.rateLimits = rateLimits;
    }

    @Override
    protected Mono<Answer> answer(ServerWebExchange exchange, ResolvedKey caller, byte[] body) {
        ResolvedKey key = required(caller);
        return Mono.just(Answer.ok(new AccountBody(
                key.identity().merchantId(),
                key.merchant().name(),
                key.merchant().email(),
                key.identity().mode().wireName(),
                key.displayPrefix(),
                KeyScope.wireNames(key.scopes()),
                key.merchant().createdAt(),
                limits())));
    }

    /** The body of {@code GET /api/v1/account}. */
    record AccountBody(
            UUID merchantId,
            String name,
            String email,
            String mode,
            String apiKeyPrefix,
            List<String> scopes,
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
