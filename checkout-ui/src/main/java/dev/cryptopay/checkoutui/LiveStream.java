package dev.cryptopay.checkoutui;

import java.time.Duration;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.Flux;

/**
 * A page's live status as Server-Sent Events: one {@code status} event per status (the current one first), a comment
 * line every heartbeat interval so proxies keep a quiet stream open, and the end of the stream when the statuses end
 * (a final state), when no status came for the idle time, or after its lifetime (the browser then reconnects and
 * gets the current status first). Ending quiet streams early gives their places back to pages that are changing.
 */
public final class LiveStream {

    /** What the browser waits before reconnecting after a dropped stream. */
    public static final Duration RECONNECT = Duration.ofSeconds(5);

    private LiveStream() {}

    public static <T> Flux<ServerSentEvent<T>> of(
            Flux<T> statuses, Duration heartbeat, Duration idle, Duration lifetime) {
        ServerSentEvent<T> end = ServerSentEvent.<T>builder().build();
        Flux<ServerSentEvent<T>> events = statuses.timeout(idle, Flux.empty())
                .map(status -> ServerSentEvent.builder(status)
                        .event("status")
                        .retry(RECONNECT)
                        .build());
        Flux<ServerSentEvent<T>> heartbeats = Flux.interval(heartbeat, heartbeat)
                .map(tick -> ServerSentEvent.<T>builder().comment("heartbeat").build());
        // The marker after the last status ends the heartbeats too; it is never sent.
        return Flux.merge(events.concatWithValues(end), heartbeats)
                .takeWhile(event -> event != end)
                .take(lifetime);
    }
}
