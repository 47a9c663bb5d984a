package dev.cryptopay.gateway.securitylog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.cryptopay.gateway.keys.KeyKind;
import dev.cryptopay.gateway.keys.ResolvedKey;
import dev.cryptopay.gateway.ratelimit.ClientAddressResolver;
import dev.cryptopay.gateway.routing.FilterOrder;
import dev.cryptopay.gateway.routing.GatewayAttributes;
import dev.cryptopay.gateway.routing.RouteAccess;
import dev.cryptopay.gateway.securitylog.SecurityAction.Recognised;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Writes the security log as signed requests pass: after a request that changed something the log follows answered
 * 2xx ({@link SecurityAction#of}, or what a route the gateway answers itself put in {@link #ANSWERED}), an entry with
 * the calling key and the client's address; and, before the first request of an API key never used before, its
 * {@code api_key.first_used}. Writing the log never fails the request: a failed write is logged at ERROR and counted
 * ({@code gateway_security_log_failures_total}).
 */
public class SecurityLogFilter implements GlobalFilter, Ordered {

    /** Exchange attribute: the {@link Recognised} action of a route the gateway answers itself. */
    public static final String ANSWERED = SecurityLogFilter.class.getName() + ".answered";

    private static final Logger log = LoggerFactory.getLogger(SecurityLogFilter.class);

    private final SecurityLog securityLog;
    private final ClientAddressResolver addresses;
    private final Clock clock;
    private final Counter failures;
    /** API keys whose first use this instance has already seen to: one statement per key, not per request. */
    private final Cache<UUID, Boolean> seen =
            Caffeine.newBuilder().maximumSize(100_000).build();

    public SecurityLogFilter(
            SecurityLog securityLog, ClientAddressResolver addresses, Clock clock, MeterRegistry meters) {
        this.securityLog = securityLog;
        this.addresses = addresses;
        this.clock = clock;
        this.failures = Counter.builder("gateway.security.log.failures")
                .description("Security log entries that could not be written")
                .register(meters);
    }

    @Override
    public int getOrder() {
        return FilterOrder.SECURITY_LOG;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        ResolvedKey caller = GatewayAttributes.caller(exchange);
        if (RouteAccess.of(route) != RouteAccess.SIGNED || caller == null || caller.kind() != KeyKind.API_KEY) {
            return chain.filter(exchange);
        }
        // The client's address is resolved only for an entry: most signed requests write none.
        return firstUse(exchange, caller)
                .then(chain.filter(exchange))
                .then(Mono.defer(() -> afterAnswer(exchange, caller)));
    }

    private Mono<Void> firstUse(ServerWebExchange exchange, ResolvedKey caller) {
        if (seen.getIfPresent(caller.keyId()) != null) {
            return Mono.empty();
        }
        return write(securityLog
                .recordFirstUse(event(exchange, caller, SecurityAction.API_KEY_FIRST_USED, caller.keyId()))
                .doOnSuccess(done -> seen.put(caller.keyId(), Boolean.TRUE)));
    }

    private Mono<Void> afterAnswer(ServerWebExchange exchange, ResolvedKey caller) {
        HttpStatusCode status = exchange.getResponse().getStatusCode();
        if (status == null || !status.is2xxSuccessful()) {
            return Mono.empty();
        }
        Recognised answered = exchange.getAttribute(ANSWERED);
        Optional<Recognised> recognised = answered != null
                ? Optional.of(answered)
                : SecurityAction.of(
                        exchange.getRequest().getMethod(),
                        GatewayAttributes.relativePath(
                                exchange.getRequest().getPath().value()));
        return recognised
                .map(found -> write(securityLog.record(event(exchange, caller, found.action(), found.targetId()))))
                .orElse(Mono.empty());
    }

    private SecurityEvent event(ServerWebExchange exchange, ResolvedKey caller, SecurityAction action, UUID target) {
        return new SecurityEvent(
                UUID.randomUUID(),
                caller.identity().merchantId(),
                caller.identity().mode(),
                action,
                caller.keyId(),
                caller.displayPrefix(),
                addresses.resolve(exchange.getRequest()),
                target,
                clock.instant());
    }

    private Mono<Void> write(Mono<Void> insert) {
        return insert.onErrorResume(failure -> {
            failures.increment();
            log.error("Could not write a security log entry: {}", failure.toString());
            return Mono.empty();
        });
    }
}
