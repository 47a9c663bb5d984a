package dev.cryptopay.bench.chain;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The chain watcher's JSON-RPC endpoint in the benchmark: forwards every call to the dev chain (anvil) and counts the
 * calls by method. It also holds the head back: {@code eth_blockNumber} answers at most {@link #showHeadUpTo(long)},
 * so the benchmark can build 100 blocks first and then let the watcher see them all at once — one measured stretch
 * of exactly those blocks.
 */
final class CountingRpcProxy implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI node;
    private final HttpClient http = HttpClient.newHttpClient();
    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(8, runnable -> {
        Thread thread = new Thread(runnable, "rpc-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
    private final AtomicLong headShown = new AtomicLong(Long.MAX_VALUE);

    CountingRpcProxy(String nodeUrl) {
        this.node = URI.create(nodeUrl);
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(threads);
        server.createContext("/", this::answer);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** eth_blockNumber answers no block above {@code head} from now on. */
    void showHeadUpTo(long head) {
        headShown.set(head);
    }

    /** The calls so far, by method. */
    Map<String, Long> calls() {
        Map<String, Long> counts = new TreeMap<>();
        calls.forEach((method, count) -> counts.put(method, count.get()));
        return counts;
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String method = JSON.readTree(body).path("method").asString("");
            calls.computeIfAbsent(method, name -> new AtomicLong()).incrementAndGet();
            byte[] reply = forward(body);
            if (method.equals("eth_blockNumber")) {
                reply = heldBack(reply);
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, reply.length);
            exchange.getResponseBody().write(reply);
        }
    }

    private byte[] heldBack(byte[] reply) {
        JsonNode answer = JSON.readTree(reply);
        if (!answer.path("result").isString()) {
            return reply;
        }
        long head = Long.decode(answer.path("result").asString());
        long shown = Math.min(head, headShown.get());
        ((ObjectNode) answer).put("result", "0x" + Long.toHexString(shown));
        return JSON.writeValueAsBytes(answer);
    }

    private byte[] forward(byte[] body) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(node)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray()).body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
