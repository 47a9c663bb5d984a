package dev.cryptopay.chainwatcher.scan;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A JSON-RPC proxy in front of the real anvil node, for tests: it forwards every request as it is and counts them by
 * method, and it can refuse eth_getLogs over more than a number of blocks the way providers do (geth's -32005 "query
 * returned more than 10000 results"). The chain itself stays anvil's: nothing is answered here but that refusal.
 */
final class RpcProxy implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI node;
    private final HttpClient http = HttpClient.newHttpClient();
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "rpc-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final AtomicInteger refused = new AtomicInteger();
    private volatile long maxLogsRange = Long.MAX_VALUE;

    RpcProxy(String nodeUrl) {
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

    /** From now on, eth_getLogs over more than {@code blocks} blocks is refused. */
    RpcProxy refuseLogsOver(long blocks) {
        this.maxLogsRange = blocks;
        return this;
    }

    /** Calls forwarded or refused since the last {@link #reset()}, by method. */
    Map<String, Integer> calls() {
        Map<String, Integer> counts = new TreeMap<>();
        calls.forEach((method, count) -> counts.put(method, count.get()));
        return counts;
    }

    /** eth_getLogs calls refused as too large since the last {@link #reset()}. */
    int refused() {
        return refused.get();
    }

    void reset() {
        calls.clear();
        refused.set(0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            JsonNode request = JSON.readTree(body);
            String method = request.path("method").asString("");
            calls.computeIfAbsent(method, name -> new AtomicInteger()).incrementAndGet();
            byte[] reply = tooLarge(request) ? refusal(request) : forward(body);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, reply.length);
            exchange.getResponseBody().write(reply);
        }
    }

    private boolean tooLarge(JsonNode request) {
        if (!request.path("method").asString("").equals("eth_getLogs")) {
            return false;
        }
        JsonNode filter = request.path("params").path(0);
        long from = Numeric.toBigInt(filter.path("fromBlock").asString()).longValueExact();
        long to = Numeric.toBigInt(filter.path("toBlock").asString()).longValueExact();
        if (to - from + 1 <= maxLogsRange) {
            return false;
        }
        refused.incrementAndGet();
        return true;
    }

    private static byte[] refusal(JsonNode request) {
        return ("{\"jsonrpc\":\"2.0\",\"id\":" + request.path("id") + ",\"error\":{\"code\":-32005,"
                        + "\"message\":\"query returned more than 10000 results\"}}")
                .getBytes(StandardCharsets.UTF_8);
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
