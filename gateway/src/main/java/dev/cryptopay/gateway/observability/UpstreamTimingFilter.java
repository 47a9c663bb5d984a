package dev.cryptopay.gateway.observability;

import dev.cryptopay.gateway.routing.FilterOrder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Times the call to the service alone (connect to response headers), per route, right before the routing filter;
 * the gateway's own work (authentication, limits) is not included.
 */
public class UpstreamTimingFilter implements GlobalFilter, Ordered {

    /** Timer name; tagged {@code route} and {@code outcome} (status class or {@code error}). */
    public static final String METRIC = "gateway.upstream.latency";

    private final MeterRegistry meters;

    public UpstreamTimingFilter(MeterRegistry meters) {
        this.meters = meters;
    }

    @Override
    public int getOrder() {
        return FilterOrder.UPSTREAM_TIMING;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        String routeId = route == null ? "none" : route.getId();
        return Mono.defer(() -> {
            Timer.Sample sample = Timer.start(meters);
            return chain.filter(exchange)
                    .doOnSuccess(done -> sample.stop(
                            timer(routeId, outcome(exchange.getResponse().getStatusCode()))))
                    .doOnError(e -> sample.stop(timer(routeId, "error")));
        });
    }

    private Timer timer(String routeId, String outcome) {
        return Timer.builder(METRIC)
                .tag("route", routeId)
                .tag("outcome", outcome)
                .register(meters);
    }

    private static String outcome(HttpStatusCode status) {
        return status == null ? "unknown" : (status.value() / 100) + "xx";
    }
}
