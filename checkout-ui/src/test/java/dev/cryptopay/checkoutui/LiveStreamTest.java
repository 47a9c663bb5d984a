package dev.cryptopay.checkoutui;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

class LiveStreamTest {

    @Test
    void sendsEachStatusThenEndsWhenTheStatusesEnd() {
        StepVerifier.withVirtualTime(() -> LiveStream.of(
                        Flux.just("pending", "active")
                                .concatWith(Flux.just("cancelled").delayElements(Duration.ofSeconds(25))),
                        Duration.ofSeconds(10),
                        Duration.ofMinutes(2),
                        Duration.ofMinutes(10)))
                .assertNext(event -> status(event, "pending"))
                .assertNext(event -> status(event, "active"))
                .thenAwait(Duration.ofSeconds(10))
                .assertNext(LiveStreamTest::heartbeat)
                .thenAwait(Duration.ofSeconds(10))
                .assertNext(LiveStreamTest::heartbeat)
                .thenAwait(Duration.ofSeconds(5))
                .assertNext(event -> status(event, "cancelled"))
                .verifyComplete();
    }

    @Test
    void endsAfterItsLifetimeWhileTheStatusesGoOn() {
        StepVerifier.withVirtualTime(() -> LiveStream.of(
                        Flux.<String>never().startWith("active"),
                        Duration.ofSeconds(15),
                        Duration.ofMinutes(2),
                        Duration.ofSeconds(40)))
                .assertNext(event -> status(event, "active"))
                .thenAwait(Duration.ofSeconds(30))
                .assertNext(LiveStreamTest::heartbeat)
                .assertNext(LiveStreamTest::heartbeat)
                .thenAwait(Duration.ofSeconds(10))
                .verifyComplete();
    }

    @Test
    void endsAQuietStreamAfterItsIdleTimeAndCountsItAfreshOnEachChange() {
        StepVerifier.withVirtualTime(() -> LiveStream.of(
                        Flux.just("pending")
                                .concatWith(Flux.just("confirming").delayElements(Duration.ofSeconds(50)))
                                .concatWith(Flux.never()),
                        Duration.ofSeconds(40),
                        Duration.ofSeconds(60),
                        Duration.ofMinutes(10)))
                .assertNext(event -> status(event, "pending"))
                .thenAwait(Duration.ofSeconds(40))
                .assertNext(LiveStreamTest::heartbeat)
                .thenAwait(Duration.ofSeconds(10))
                .assertNext(event -> status(event, "confirming"))
                .as("quiet for 40 s after a change: still open")
                .thenAwait(Duration.ofSeconds(30))
                .assertNext(LiveStreamTest::heartbeat)
                .as("quiet for 60 s: ended, long before its 10-minute lifetime")
                .thenAwait(Duration.ofSeconds(30))
                .verifyComplete();
    }

    @Test
    void countsOpenStreamsUpToTheirMaximum() {
        StreamSlots slots = new StreamSlots(2);
        assertThat(slots.tryOpen()).isTrue();
        assertThat(slots.tryOpen()).isTrue();
        assertThat(slots.tryOpen()).isFalse();
        slots.close();
        assertThat(slots.open()).isEqualTo(1);
        assertThat(slots.tryOpen()).isTrue();
        assertThat(slots.max()).isEqualTo(2);
    }

    private static void status(ServerSentEvent<String> event, String data) {
        assertThat(event.event()).isEqualTo("status");
        assertThat(event.data()).isEqualTo(data);
        assertThat(event.retry()).isEqualTo(LiveStream.RECONNECT);
    }

    private static void heartbeat(ServerSentEvent<String> event) {
        assertThat(event.comment()).isEqualTo("heartbeat");
        assertThat(event.data()).isNull();
    }
}
