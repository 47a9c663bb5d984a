package dev.cryptopay.gateway.ratelimit;

import dev.cryptopay.gateway.routing.FilterOrder;
import dev.cryptopay.service.error.ApiException;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Caps the customer status streams this instance holds open at once, per client address and per link
 * ({@link StreamLimitProperties}). A stream takes its two places when it is let through and gives them back when it
 * ends, however it ends (the service closed it, the browser went away, the upstream failed). The services keep their
 * own cap of all streams per instance; this one keeps a single address, or a crowd on a single link, from taking it.
 */
public class StreamLimitFilter implements GlobalFilter, Ordered {

    /** Counter name; tagged {@code limit} ({@code client} or {@code link}). */
    public static final String REFUSED_METRIC = "gateway.streams.refused";

    /** Seconds a refused page is told to wait before opening a stream again (it polls meanwhile). */
    static final int RETRY_AFTER_SECONDS = 10;

    /** The stream routes and the query parameter that names what each one watches. */
    private static final Map<String, String> STREAMS = Map.of(
            "/checkout/payment_link/events", "payment_id",
            "/checkout/subscribe/events", "subscriber_id");

    private final StreamLimitProperties properties;
    private final ClientAddressResolver clientAddresses;
    private final MeterRegistry meters;
    private final Map<String, Integer> open = new ConcurrentHashMap<>();

    public StreamLimitFilter(
            StreamLimitProperties properties, ClientAddressResolver clientAddresses, MeterRegistry meters) {
        this.properties = properties;
        this.clientAddresses = clientAddresses;
        this.meters = meters;
    }

    @Override
    public int getOrder() {
        return FilterOrder.STREAM_LIMIT;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        String watched = STREAMS.get(request.getPath().value());
        if (watched == null || !HttpMethod.GET.equals(request.getMethod())) {
            return chain.filter(exchange);
        }
        String client = "client:" + clientAddresses.bucketOf(request);
        String link = "link:" + request.getPath().value() + "?"
                + request.getQueryParams().getFirst(watched);
        if (!take(client, properties.maxPerClient())) {
            return refused(exchange, "client", "this address has " + properties.maxPerClient());
        }
        if (!take(link, properties.maxPerLink())) {
            giveBack(client);
            return refused(exchange, "link", "this page has " + properties.maxPerLink());
        }
        AtomicBoolean returned = new AtomicBoolean();
        return chain.filter(exchange).doFinally(signal -> {
            if (returned.compareAndSet(false, true)) {
                giveBack(client);
                giveBack(link);
            }
        });
    }

    /** How many streams hold a place under {@code key} now (for tests). */
    int openOf(String key) {
        return open.getOrDefault(key, 0);
    }

    private boolean take(String key, int max) {
        boolean[] taken = {false};
        open.compute(key, (k, count) -> {
            int now = count == null ? 0 : count;
            if (now >= max) {
                return count;
            }
            taken[0] = true;
            return now + 1;
        });
        return taken[0];
    }

    private void giveBack(String key) {
        open.computeIfPresent(key, (k, count) -> count <= 1 ? null : count - 1);
    }

    private Mono<Void> refused(ServerWebExchange exchange, String limit, String why) {
        meters.counter(REFUSED_METRIC, "limit", limit).increment();
        exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, Integer.toString(RETRY_AFTER_SECONDS));
        return Mono.error(new ApiException(
                HttpStatus.TOO_MANY_REQUESTS,
                "too_many_streams",
                "Too many open status streams (" + why + " open); poll the status route instead"));
    }
}
