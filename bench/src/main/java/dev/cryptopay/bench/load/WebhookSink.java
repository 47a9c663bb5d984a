package dev.cryptopay.bench.load;

import dev.cryptopay.auth.webhook.WebhookSignature;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A local webhook receiver that answers 200 at once and checks what a merchant's receiver would: the signature of
 * every delivery (under the secret of the endpoint it was sent to, one path per endpoint) and whether an event id
 * arrives twice. Each first arrival is timed against when its create was sent ({@code sentAt}, found by the create's
 * {@code order_id}), so the latency is create → webhook answered.
 */
final class WebhookSink implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** What {@code sentAtNanos} answers for a create it has no time for ({@link System#nanoTime()} may be negative). */
    static final long NOT_SENT = Long.MIN_VALUE;

    private final Map<String, String> secrets = new ConcurrentHashMap<>();
    private final Map<String, Boolean> seen = new ConcurrentHashMap<>();
    private final Map<String, Phase> phases = new ConcurrentHashMap<>();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong badSignatures = new AtomicLong();
    private final AtomicLong unknown = new AtomicLong();
    private final DisposableServer server;

    /** Events of one part of a run: order ids {@code <prefix>-<index>}. */
    static final class Phase {
        final Histogram latencyMicros = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(10), 3);
        final AtomicLong delivered = new AtomicLong();
        final AtomicLong lastArrivalNanos = new AtomicLong();
        final Map<Integer, Boolean> deliveredIndexes = new ConcurrentHashMap<>();
        private final ToLongFunction<Integer> sentAtNanos;

        Phase(ToLongFunction<Integer> sentAtNanos) {
            this.sentAtNanos = sentAtNanos;
        }

        private void arrived(int index, long nanos) {
            if (deliveredIndexes.putIfAbsent(index, Boolean.TRUE) == null) {
                long sent = sentAtNanos.applyAsLong(index);
                if (sent != NOT_SENT) {
                    latencyMicros.recordValue(
                            Math.min(latencyMicros.getHighestTrackableValue(), (nanos - sent) / 1000));
                }
                delivered.incrementAndGet();
                lastArrivalNanos.accumulateAndGet(nanos, Math::max);
            }
        }
    }

    WebhookSink() {
        this.server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .handle((request, response) -> request.receive()
                        .aggregate()
                        .asByteArray()
                        .defaultIfEmpty(new byte[0])
                        .flatMap(body -> {
                            receive(
                                    request.path(),
                                    request.requestHeaders().get("X-Service-Signature"),
                                    request.requestHeaders().get("X-Service-Event-Id"),
                                    body);
                            return response.status(200).send().then();
                        })
                        .then(Mono.empty()))
                .bindNow();
    }

    /** The URL of a new endpoint path; deliveries to it are checked against {@code secret} once it is set. */
    String url(String name) {
        return "http://127.0.0.1:" + server.port() + "/" + name;
    }

    void secret(String name, String secret) {
        secrets.put(name, secret);
    }

    Phase phase(String prefix, ToLongFunction<Integer> sentAtNanos) {
        Phase phase = new Phase(sentAtNanos);
        phases.put(prefix, phase);
        return phase;
    }

    long duplicates() {
        return duplicates.get();
    }

    long badSignatures() {
        return badSignatures.get();
    }

    /** Deliveries that were not a payment.created of a known phase. */
    long unknown() {
        return unknown.get();
    }

    private void receive(String path, String signature, String eventId, byte[] body) {
        long now = System.nanoTime();
        String secret = secrets.get(path);
        if (secret == null || signature == null || !WebhookSignature.verify(secret, body, signature)) {
            badSignatures.incrementAndGet();
            return;
        }
        if (eventId == null || seen.putIfAbsent(eventId, Boolean.TRUE) != null) {
            duplicates.incrementAndGet();
            return;
        }
        JsonNode orderId = JSON.readTree(body).path("data").path("order_id");
        String[] parts = orderId.asString("").split("-", 2);
        Phase phase = parts.length == 2 ? phases.get(parts[0]) : null;
        if (phase == null) {
            unknown.incrementAndGet();
            return;
        }
        phase.arrived(Integer.parseInt(parts[1]), now);
    }

    @Override
    public void close() {
        server.disposeNow();
    }
}
