package dev.cryptopay.webhooks;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Collectors;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A real HTTP receiver on 127.0.0.1 that records every request (headers and exact body bytes) and answers as the
 * test scripts it: a status per call, optionally with headers or a delay.
 */
public final class TestReceiver implements AutoCloseable {

    /** One received request. */
    public record Received(String path, Map<String, String> headers, byte[] body) {

        public String header(String name) {
            return headers.get(name.toLowerCase());
        }
    }

    /** How the receiver answers one call. */
    public record Reply(int status, Map<String, String> headers, Duration delay) {

        public static Reply status(int status) {
            return new Reply(status, Map.of(), Duration.ZERO);
        }
    }

    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<Reply> script = new ConcurrentLinkedQueue<>();
    private volatile Function<Integer, Reply> fallback = call -> Reply.status(200);
    private final DisposableServer server;

    public TestReceiver() {
        server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .handle((request, response) -> request.receive()
                        .aggregate()
                        .asByteArray()
                        .defaultIfEmpty(new byte[0])
                        .flatMap(body -> {
                            Map<String, String> headers = request.requestHeaders().entries().stream()
                                    .collect(Collectors.toMap(
                                            e -> e.getKey().toLowerCase(), Map.Entry::getValue, (a, b) -> a));
                            received.add(
                                    new Received(request.path().isEmpty() ? "/" : "/" + request.path(), headers, body));
                            Reply reply = script.poll();
                            Reply chosen = reply != null ? reply : fallback.apply(received.size());
                            response.status(chosen.status());
                            chosen.headers().forEach(response::header);
                            return Mono.delay(chosen.delay())
                                    .then(response.sendString(Mono.just("ok")).then());
                        }))
                .bindNow();
    }

    /** Answers the next calls with these replies, in order, then with the fallback. */
    public TestReceiver script(Reply... replies) {
        script.addAll(List.of(replies));
        return this;
    }

    /** How calls beyond the script are answered, by call number (default 200). */
    public TestReceiver otherwise(Function<Integer, Reply> answer) {
        this.fallback = answer;
        return this;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    @Override
    public void close() {
        server.disposeNow();
    }
}
