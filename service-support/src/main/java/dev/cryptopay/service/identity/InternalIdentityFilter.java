package dev.cryptopay.service.identity;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalIdentityToken;
import dev.cryptopay.auth.internal.InternalTokenOutcome;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.ProblemWriter;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import reactor.core.publisher.Mono;

/**
 * Lets through only requests that carry a valid {@code X-Internal-Auth} token from the gateway (or an internal
 * caller holding the shared secret). The token binds the merchant id and mode headers, the method and the path, so
 * a header changed on the way is refused. Paths in {@code internal-auth.open-paths} need no token.
 */
public class InternalIdentityFilter implements WebFilter, Ordered {

    private static final Logger log = LoggerFactory.getLogger(InternalIdentityFilter.class);

    private final InternalIdentityToken tokens;
    private final InternalAuthProperties properties;
    private final Clock clock;
    private final ProblemWriter problems;
    private final List<PathPattern> openPaths;

    public InternalIdentityFilter(InternalAuthProperties properties, Clock clock, ProblemWriter problems) {
        this.tokens = InternalIdentityToken.fromSecret(properties.secret());
        this.properties = properties;
        this.clock = clock;
        this.problems = problems;
        this.openPaths = properties.openPaths().stream()
                .map(PathPatternParser.defaultInstance::parse)
                .toList();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 10;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        PathContainer path = exchange.getRequest().getPath().pathWithinApplication();
        if (openPaths.stream().anyMatch(pattern -> pattern.matches(path))) {
            return chain.filter(exchange);
        }
        HttpHeaders headers = exchange.getRequest().getHeaders();
        MerchantIdentity identity;
        try {
            identity = identityFrom(headers);
        } catch (IllegalArgumentException malformed) {
            return reject(exchange, "malformed merchant identity headers");
        }
        InternalTokenOutcome outcome = tokens.verify(
                headers.getFirst(InternalHeaders.INTERNAL_AUTH),
                identity,
                exchange.getRequest().getMethod().name(),
                path.value(),
                clock.instant(),
                properties.maxAge());
        if (outcome != InternalTokenOutcome.VALID) {
            return reject(exchange, "internal token " + outcome);
        }
        if (identity != null) {
            exchange.getAttributes().put(CurrentMerchant.ATTRIBUTE, identity);
        }
        return chain.filter(exchange);
    }

    private Mono<Void> reject(ServerWebExchange exchange, String why) {
        log.warn(
                "Refused {} {}: {}",
                exchange.getRequest().getMethod(),
                exchange.getRequest().getPath(),
                why);
        return problems.write(
                exchange, ApiException.unauthorized("internal_auth_failed", "Requests must come through the gateway"));
    }

    private static MerchantIdentity identityFrom(HttpHeaders headers) {
        String id = headers.getFirst(InternalHeaders.MERCHANT_ID);
        String mode = headers.getFirst(InternalHeaders.MERCHANT_MODE);
        if (id == null && mode == null) {
            return null;
        }
        if (id == null || mode == null) {
            throw new IllegalArgumentException("merchant id and mode go together");
        }
        return new MerchantIdentity(UUID.fromString(id), Mode.fromWireName(mode));
    }
}
