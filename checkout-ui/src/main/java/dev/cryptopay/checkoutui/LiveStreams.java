package dev.cryptopay.checkoutui;

import java.time.Duration;
import java.util.function.Supplier;
import org.springframework.http.HttpHeaders;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;

/**
 * The live-status streams of one page on one instance: each a {@link LiveStream} with the page's heartbeat interval
 * and lifetime, at most {@code max} open at once (each reads the database every poll interval, so a crowd of open
 * pages cannot exhaust the instance). Beyond, a new stream is refused: the response carries {@code Retry-After} and
 * fails with the service's refusal (its 503 problem, naming the status route), and the page polls that route instead.
 */
public final class LiveStreams {

    /** Seconds a browser refused a stream is told to wait ({@code Retry-After}) before opening one again. */
    public static final int RETRY_AFTER_SECONDS = 10;

    private final StreamSlots slots;
    private final Duration heartbeat;
    private final Duration idle;
    private final Duration lifetime;
    private final Supplier<? extends RuntimeException> refusal;

    /**
     * @param max the most streams this instance keeps open
     * @param heartbeat the interval of the comment lines that keep a quiet stream open through proxies
     * @param idle how long a stream stays open without a new status before it ends (the browser reconnects)
     * @param lifetime how long one stream lasts at most before the browser reconnects
     * @param refusal the service's answer to a stream beyond {@code max}, in its own error shape
     */
    public LiveStreams(
            int max,
            Duration heartbeat,
            Duration idle,
            Duration lifetime,
            Supplier<? extends RuntimeException> refusal) {
        this.slots = new StreamSlots(max);
        this.heartbeat = heartbeat;
        this.idle = idle;
        this.lifetime = lifetime;
        this.refusal = refusal;
    }

    /**
     * The statuses as a stream when a place is free; the place is given back when the stream ends, however it ends (a
     * final state, its lifetime, the browser gone, a failure). Else {@code Retry-After} on the response and the
     * refusal as the error.
     */
    public <T> Flux<ServerSentEvent<T>> open(ServerWebExchange exchange, Flux<T> statuses) {
        if (!slots.tryOpen()) {
            exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, String.valueOf(RETRY_AFTER_SECONDS));
            return Flux.error(refusal.get());
        }
        return LiveStream.of(statuses, heartbeat, idle, lifetime).doFinally(signal -> slots.close());
    }

    /** How many streams are open now. */
    public int openStreams() {
        return slots.open();
    }

    /** The most streams this instance keeps open. */
    public int maxStreams() {
        return slots.max();
    }
}
