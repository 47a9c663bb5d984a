package dev.cryptopay.gateway.routing;

import dev.cryptopay.service.error.ApiException;
import dev.cryptopay.service.error.Failures;
import dev.cryptopay.service.error.ProblemExceptionHandler;
import dev.cryptopay.service.error.ProblemWriter;
import dev.cryptopay.service.requestid.RequestIds;
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
 * The shared problem rendering plus the failures only a proxy has: a service that refuses connections or drops them
 * is a 503 {@code upstream_unavailable}; one that does not answer in time is a 504 {@code upstream_timeout}.
 */
public class GatewayProblemExceptionHandler extends ProblemExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(GatewayProblemExceptionHandler.class);

    public GatewayProblemExceptionHandler(ProblemWriter writer) {
        super(writer);
    }

    @Override
    protected ApiException toApiException(ServerWebExchange exchange, Throwable failure) {
        if (failure instanceof ApiException api) {
            return api;
        }
        if (failure instanceof ResponseStatusException status
                        && status.getStatusCode().value() == 504
                || Failures.causedBy(failure, TimeoutException.class)
                || Failures.causedBy(failure, ReadTimeoutException.class)) {
            log.warn(
                    "Upstream timeout on {} {} (request {})",
                    exchange.getRequest().getMethod(),
                    exchange.getRequest().getPath(),
                    RequestIds.of(exchange));
            return new ApiException(
                    HttpStatus.GATEWAY_TIMEOUT, "upstream_timeout", "The service did not answer in time");
        }
        if (Failures.causedBy(failure, ConnectException.class)
                || Failures.causedBy(failure, PrematureCloseException.class)
                || Failures.causedBy(failure, ClosedChannelException.class)
                || Failures.causedBy(failure, UnknownHostException.class)
                || failure instanceof ResponseStatusException status
                        && status.getStatusCode().value() == 503) {
            log.warn(
                    "Upstream unavailable on {} {} (request {}): {}",
                    exchange.getRequest().getMethod(),
                    exchange.getRequest().getPath(),
                    RequestIds.of(exchange),
                    failure.toString());
            return new ApiException(
                    HttpStatus.SERVICE_UNAVAILABLE,
                    "upstream_unavailable",
                    "The service is unavailable; retry shortly");
        }
        return super.toApiException(exchange, failure);
    }
}
