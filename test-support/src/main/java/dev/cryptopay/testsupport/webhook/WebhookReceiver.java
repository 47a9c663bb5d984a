package dev.cryptopay.testsupport.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cryptopay.testsupport.LoopbackHttpServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A merchant's webhook endpoint for tests: a real HTTP server on 127.0.0.1 (the JDK's own) that records every request
 * — path, headers, exact body bytes, arrival time — and answers as the test scripts it: a list of replies taken in
 * order, then a rule for every other call (200 unless told otherwise). Replies may carry headers and a delay; calls
 * are served on their own threads, so a slow reply does not hold up the next call.
 *
 * <pre>{@code
 * try (WebhookReceiver receiver = new WebhookReceiver().failFirst(1)) {
 *     register(merchant, receiver.url(), List.of("payment.created"));
 *     ...
 *     WebhookReceiver.Received first = receiver.received().get(0);
 *     assertThat(first.header("X-Service-Signature")).isEqualTo(WebhookReceiver.hmacHex(secret, first.body()));
 * }
 * }</pre>
 */
public final class WebhookReceiver implements AutoCloseable {

    /** The path {@link #url()} points at. */
    public static final String DEFAULT_PATH = "/hooks";

    /** One request as received; {@code call} counts from 1 in arrival order. */
    public record Received(int call, Instant at, String path, Map<String, String> headers, byte[] body) {

        /** The first value of a header, by case-insensitive name, or null. */
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** How the receiver answers one call; the body is "ok" unless given. */
    public record Reply(int status, Map<String, String> headers, Duration delay, byte[] body) {

        public Reply(int status, Map<String, String> headers, Duration delay) {
            this(status, headers, delay, "ok".getBytes(StandardCharsets.UTF_8));
        }

        public static Reply status(int status) {
            return new Reply(status, Map.of(), Duration.ZERO);
        }

        /** A status with these exact body bytes (e.g. junk a hostile receiver sends back). */
        public static Reply body(int status, byte[] body) {
            return new Reply(status, Map.of(), Duration.ZERO, body);
        }
    }

    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<Reply> script = new ConcurrentLinkedQueue<>();
    private final AtomicInteger calls = new AtomicInteger();
    private volatile Function<Received, Reply> otherwise = call -> Reply.status(200);
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "webhook-receiver");
        thread.setDaemon(true);
        return thread;
    });
    private final HttpServer server;

    public WebhookReceiver() {
        server = LoopbackHttpServer.create();
        server.setExecutor(threads);
        server.createContext("/", this::answer);
        server.start();
    }

    /** Answers the next calls with these replies, in order, then by the {@link #otherwise} rule. */
    public WebhookReceiver script(Reply... replies) {
        script.addAll(List.of(replies));
        return this;
    }

    /** How calls beyond the script are answered (default: 200). */
    public WebhookReceiver otherwise(Function<Received, Reply> answer) {
        this.otherwise = answer;
        return this;
    }

    /** Answers the first {@code calls} calls with 500, later ones with 200. */
    public WebhookReceiver failFirst(int calls) {
        return otherwise(request -> Reply.status(request.call() <= calls ? 500 : 200));
    }

    /** The receiver's URL at {@value #DEFAULT_PATH}. */
    public String url() {
        return url(DEFAULT_PATH);
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** Every request so far, in arrival order. */
    public List<Received> received() {
        return List.copyOf(received);
    }

    /** Lowercase hex HMAC-SHA256 of {@code data} under {@code secret}, computed here, apart from any service code. */
    public static String hmacHex(String secret, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(data));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders()
                    .forEach((name, values) -> headers.putIfAbsent(name.toLowerCase(Locale.ROOT), values.get(0)));
            Received request = new Received(
                    calls.incrementAndGet(),
                    Instant.now(),
                    exchange.getRequestURI().getPath(),
                    Map.copyOf(headers),
                    body);
            received.add(request);
            Reply scripted = script.poll();
            Reply reply = scripted != null ? scripted : otherwise.apply(request);
            if (!reply.delay().isZero()) {
                Thread.sleep(reply.delay().toMillis());
            }
            reply.headers()
                    .forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
            if (reply.status() == 204 || reply.status() == 304) {
                exchange.sendResponseHeaders(reply.status(), -1);
            } else {
                exchange.sendResponseHeaders(reply.status(), reply.body().length);
                exchange.getResponseBody().write(reply.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
