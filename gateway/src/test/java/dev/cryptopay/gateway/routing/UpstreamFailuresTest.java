package dev.cryptopay.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.service.error.ApiException;
import io.netty.handler.timeout.ReadTimeoutException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ResponseStatusException;
import reactor.netty.http.client.PrematureCloseException;

/** Which failures are the upstream's; UpstreamFailureTest sees two of them through a running gateway. */
class UpstreamFailuresTest {

    private final UpstreamFailures mapping = new UpstreamFailures();

    @Test
    void aServiceThatDoesNotAnswerInTimeIsA504() {
        for (Throwable failure : new Throwable[] {
            new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT),
            new IllegalStateException(new TimeoutException()),
            ReadTimeoutException.INSTANCE
        }) {
            ApiException answer = map(failure);
            assertThat(answer.status()).as(failure.toString()).isEqualTo(HttpStatus.GATEWAY_TIMEOUT);
            assertThat(answer.code()).isEqualTo("upstream_timeout");
            assertThat(answer.getMessage()).isEqualTo("The service did not answer in time");
        }
    }

    @Test
    void aServiceThatRefusesOrDropsConnectionsIsA503() {
        for (Throwable failure : new Throwable[] {
            new IOException(new ConnectException("refused")),
            PrematureCloseException.TEST_EXCEPTION,
            new ClosedChannelException(),
            new UnknownHostException("payment-links"),
            new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE)
        }) {
            ApiException answer = map(failure);
            assertThat(answer.status()).as(failure.toString()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
            assertThat(answer.code()).isEqualTo("upstream_unavailable");
            assertThat(answer.getMessage()).isEqualTo("The service is unavailable; retry shortly");
        }
    }

    @Test
    void leavesEverythingElseToTheSharedMappings() {
        assertThat(map(new ResponseStatusException(HttpStatus.NOT_FOUND))).isNull();
        assertThat(map(new ResponseStatusException(HttpStatus.BAD_GATEWAY))).isNull();
        assertThat(map(new IllegalStateException("boom"))).isNull();
    }

    private ApiException map(Throwable failure) {
        return mapping.map(MockServerWebExchange.from(MockServerHttpRequest.get("/api/v1/account")), failure);
    }
}
