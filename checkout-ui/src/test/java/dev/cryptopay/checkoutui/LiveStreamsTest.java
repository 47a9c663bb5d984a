package dev.cryptopay.checkoutui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

class LiveStreamsTest {

    private static final Duration LIMIT = Duration.ofSeconds(5);

    private final LiveStreams streams = new LiveStreams(
            1,
            Duration.ofMinutes(1),
            Duration.ofMinutes(2),
            Duration.ofMinutes(10),
            () -> new IllegalStateException("too many streams"));

    @Test
    void beyondTheCapTheStreamIsRefusedWithRetryAfterAndAnEndedStreamFreesItsPlace() {
        Sinks.Many<String> statuses = Sinks.many().unicast().onBackpressureBuffer();
        MockServerWebExchange first = exchange();
        Flux<ServerSentEvent<String>> open = streams.open(first, statuses.asFlux());

        StepVerifier.create(open)
                .then(() -> {
                    assertThat(streams.openStreams()).isEqualTo(1);
                    MockServerWebExchange second = exchange();
                    StepVerifier.create(streams.open(second, Flux.just("active")))
                            .expectErrorMessage("too many streams")
                            .verify(LIMIT);
                    assertThat(second.getResponse().getHeaders().getFirst(HttpHeaders.RETRY_AFTER))
                            .isEqualTo("10");
                    statuses.tryEmitNext("active");
                })
                .assertNext(event -> assertThat(event.data()).isEqualTo("active"))
                .then(statuses::tryEmitComplete)
                .verifyComplete();

        assertThat(first.getResponse().getHeaders().getFirst(HttpHeaders.RETRY_AFTER))
                .isNull();
        assertThat(streams.openStreams()).isZero();
        assertThat(streams.maxStreams()).isEqualTo(1);
    }

    @Test
    void aStreamTheBrowserDropsFreesItsPlace() {
        StepVerifier.create(streams.open(exchange(), Flux.<String>never().startWith("pending")))
                .assertNext(event -> assertThat(event.event()).isEqualTo("status"))
                .thenCancel()
                .verify(LIMIT);
        assertThat(streams.openStreams()).isZero();

        StepVerifier.create(streams.open(exchange(), Flux.just("cancelled")))
                .assertNext(event -> assertThat(event.data()).isEqualTo("cancelled"))
                .verifyComplete();
        assertThat(streams.openStreams()).isZero();
    }

    private static MockServerWebExchange exchange() {
        return MockServerWebExchange.from(MockServerHttpRequest.get("/checkout/subscribe/events"));
    }
}
