package dev.cryptopay.service.actuator;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.ProblemWriter;
import java.util.Locale;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Refuses (400 {@code invalid_path}) a request to the actuator whose path holds an encoded slash or backslash
 * ({@code %2F}, {@code %5C}). Spring Boot's health endpoint takes the rest of its path as a group name and fails with
 * a 500 on one that decodes to more than one segment ({@code /actuator/health/a%2Fb}). The gateway refuses such
 * paths before they reach a service; this covers the callers inside the network (probes, metrics scrapers). The
 * services' own routes answer those paths with a 4xx already.
 */
public final class ActuatorPathGuard implements WebFilter, Ordered {

    private final String basePath;
    private final ProblemWriter problems;

    /** @param basePath the actuator's base path ({@code management.endpoints.web.base-path}, e.g. /actuator) */
    public ActuatorPathGuard(String basePath, ProblemWriter problems) {
        this.basePath = basePath.endsWith("/") ? basePath : basePath + "/";
        this.problems = problems;
    }

    @Override
    public int getOrder() {
        // After the request id (HIGHEST_PRECEDENCE), so the problem carries it.
        return Ordered.HIGHEST_PRECEDENCE + 5;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String rawPath = exchange.getRequest().getPath().pathWithinApplication().value();
        if (rawPath.startsWith(basePath)) {
            String lower = rawPath.toLowerCase(Locale.ROOT);
            if (lower.contains("%2f") || lower.contains("%5c")) {
                return problems.write(
                        exchange,
                        ApiException.badRequest(
                                "invalid_path", "The path must not contain an encoded slash or backslash"));
            }
        }
        return chain.filter(exchange);
    }
}
