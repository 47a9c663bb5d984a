package dev.cryptopay.gateway.auth;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.requestid.RequestIds;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Turns an authentication failure into a 401 problem, counts it and logs it (without any credential). */
public class AuthFailures {

    private static final Logger log = LoggerFactory.getLogger(AuthFailures.class);

    /** Counter name; tagged {@code reason} = the problem code. */
    public static final String METRIC = "gateway.auth.failures";

    private final MeterRegistry meters;

    public AuthFailures(MeterRegistry meters) {
        this.meters = meters;
    }

    public <T> Mono<T> reject(ServerWebExchange exchange, String code, String message, String keyPrefix) {
        meters.counter(METRIC, "reason", code).increment();
        log.info(
                "auth_failure reason={} method={} path={} key={} request_id={}",
                code,
                exchange.getRequest().getMethod(),
                exchange.getRequest().getPath().value(),
                keyPrefix == null ? "-" : keyPrefix,
                RequestIds.of(exchange));
        return Mono.error(ApiException.unauthorized(code, message));
    }
}
