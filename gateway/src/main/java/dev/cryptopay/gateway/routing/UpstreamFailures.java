package dev.cryptopay.gateway.routing;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.FailureMapping;
import dev.cryptopay.service.error.Failures;
import io.netty.handler.timeout.ReadTimeoutException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import reactor.netty.http.client.PrematureCloseException;

/**
 * The failures only a proxy has: a service that refuses connections or drops them is a 503
 * {@code upstream_unavailable}; one that does not answer in time is a 504 {@code upstream_timeout}. Asked by the
 * shared problem handler before its own mappings (which would call a refused connection the database's).
 */
public final class UpstreamFailures implements FailureMapping {

    private static final Logger log = LoggerFactory.getLogger(UpstreamFailures.class);

    @Override
    public ApiException map(ServerWebExchange exchange, Throwable failure) {
        if (hasStatus(failure, HttpStatus.GATEWAY_TIMEOUT)
                || Failures.causedBy(failure, TimeoutException.class)
                || Failures.causedBy(failure, ReadTimeoutException.class)) {
            log.warn("Upstream timeout on {}", Failures.where(exchange));
            return new ApiException(
                    HttpStatus.GATEWAY_TIMEOUT, "upstream_timeout", "The service did not answer in time");
        }
        if (Failures.causedBy(failure, ConnectException.class)
                || Failures.causedBy(failure, PrematureCloseException.class)
                || Failures.causedBy(failure, ClosedChannelException.class)
                || Failures.causedBy(failure, UnknownHostException.class)
                || hasStatus(failure, HttpStatus.SERVICE_UNAVAILABLE)) {
            log.warn("Upstream unavailable on {}: {}", Failures.where(exchange), failure.toString());
            return new ApiException(
                    HttpStatus.SERVICE_UNAVAILABLE,
                    "upstream_unavailable",
                    "The service is unavailable; retry shortly");
        }
        return null;
    }

    /** Spring Cloud Gateway reports some upstream failures as a bare status. */
    private static boolean hasStatus(Throwable failure, HttpStatus status) {
        return failure instanceof ResponseStatusException response
                && response.getStatusCode().value() == status.value();
    }
}
