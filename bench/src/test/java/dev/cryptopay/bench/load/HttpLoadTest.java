package dev.cryptopay.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/** The load driver counts what it should and, in open loop, does not let a stalled server hide its stall. */
class HttpLoadTest {

    private DisposableServer server;
    private final AtomicInteger served = new AtomicInteger();
    /** The server stalls for 300 ms before answering the request with this number (counting from 0). */
    private final AtomicInteger stallAt = new AtomicInteger(-1);

    @BeforeEach
    void start() {
        server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .handle((request, response) -> {
                    int number = served.getAndIncrement();
                    Mono<String> body = number == stallAt.get()
                            ? Mono.delay(Duration.ofMillis(300)).thenReturn("ok")
                            : Mono.just("ok");
                    return response.status(request.path().equals("missing") ? 404 : 200)
                            .sendString(body);
                })
                .bindNow();
    }

    @AfterEach
    void stop() {
        server.disposeNow();
    }

    @Test
    void closedLoopCountsAnsweredRequestsAndFailuresSeparately() {
        AtomicInteger n = new AtomicInteger();
        Supplier<HttpLoad.Request> next = () -> request(n.getAndIncrement() % 10 == 0 ? "/missing" : "/ok");

        HttpLoad.Result result =
                new HttpLoad(4, 200).closedLoop("test", next, 4, Duration.ofMillis(200), Duration.ofSeconds(1));

        assertThat(result.answered()).isPositive();
        assertThat(result.failed()).isPositive();
        assertThat(result.answered()).isGreaterThan(result.failed() * 5);
        assertThat(result.latencyMicros().getTotalCount()).isEqualTo(result.answered());
        assertThat(served.get()).isGreaterThanOrEqualTo((int) (result.answered() + result.failed()));
    }

    @Test
    void openLoopMeasuresFromTheIntendedStartSoAStallShowsInTheLatencies() {
        HttpLoad.Result steady = new HttpLoad(1, 200)
                .openLoop("steady", () -> request("/ok"), 100, Duration.ofMillis(200), Duration.ofSeconds(1));
        served.set(0);
        stallAt.set(40); // after the 20 warm-up requests
        HttpLoad.Result stalled = new HttpLoad(1, 200)
                .openLoop("stalled", () -> request("/ok"), 100, Duration.ofMillis(200), Duration.ofSeconds(1));

        // One connection: the requests due during the 300 ms stall queue behind it. A closed loop would have sent
        // them later and reported a few ms each; measured from their schedule, about 30 of 100 wait 100–300 ms.
        assertThat(steady.answered()).isBetween(90L, 110L);
        assertThat(steady.percentileMillis(99)).isLessThan(100);
        assertThat(stalled.percentileMillis(90)).isGreaterThan(50);
        assertThat(stalled.latencyMicros().getMaxValue() / 1000).isGreaterThanOrEqualTo(250);
    }

    private HttpLoad.Request request(String path) {
        return new HttpLoad.Request("GET", "http://127.0.0.1:" + server.port() + path, Map.of(), new byte[0]);
    }
}
