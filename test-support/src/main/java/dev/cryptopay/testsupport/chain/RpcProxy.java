package dev.cryptopay.testsupport.chain;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cryptopay.testsupport.LoopbackHttpServer;
import java.io.IOException;
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
import java.util.concurrent.atomic.AtomicLong;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JSON-RPC proxy in front of a real node (anvil), on a free port of 127.0.0.1: it forwards every request as it is
 * and counts the calls by method. The chain stays the node's; the proxy only changes what it is told to:
 *
 * <ul>
 *   <li>{@link #refuseLogsOver(long)}: eth_getLogs over more blocks is refused the way providers do (geth's -32005
 *       "query returned more than 10000 results"), without reaching the node;
 *   <li>{@link #showHeadUpTo(long)}: eth_blockNumber answers no block above that one, so blocks can be built first
 *       and then seen all at once;
 *   <li>{@link #refuseBroadcasts(boolean)}: eth_sendRawTransaction is refused without reaching the node, as a node
 *       in trouble refuses it (-32000), so a sender's outage can be played.
 * </ul>
 */
public final class RpcProxy implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI node;
    private final HttpClient http = HttpClient.newHttpClient();
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "rpc-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> nodeNanos = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong headShown = new AtomicLong(Long.MAX_VALUE);
    private volatile long maxLogsRange = Long.MAX_VALUE;
    private volatile boolean refuseBroadcasts;

    /** Starts the proxy in front of the node at {@code nodeUrl}. */
    public RpcProxy(String nodeUrl) {
        this.node = URI.create(nodeUrl);
        server = LoopbackHttpServer.create();
        server.setExecutor(threads);
        server.createContext("/", this::answer);
        server.start();
    }

    /** Where to send JSON-RPC requests instead of the node. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** From now on, eth_getLogs over more than {@code blocks} blocks is refused. */
    public RpcProxy refuseLogsOver(long blocks) {
        this.maxLogsRange = blocks;
        return this;
    }

    /** From now on, eth_blockNumber answers no block above {@code head} (the node's own head when it is lower). */
    public RpcProxy showHeadUpTo(long head) {
        headShown.set(head);
        return this;
    }

    /** From now on (while {@code refuse}), eth_sendRawTransaction is refused and never reaches the node. */
    public RpcProxy refuseBroadcasts(boolean refuse) {
        this.refuseBroadcasts = refuse;
        return this;
    }

    /** Calls forwarded or refused since the start or the last {@link #reset()}, by method (sorted by name). */
    public Map<String, Long> calls() {
        Map<String, Long> counts = new TreeMap<>();
        calls.forEach((method, count) -> counts.put(method, count.get()));
        return counts;
    }

    /**
     * Nanoseconds the node took to answer the calls forwarded since the start or the last {@link #reset()}, by method
     * (sorted by name): how much of a client's wait is the node's.
     */
    public Map<String, Long> nodeNanos() {
        Map<String, Long> nanos = new TreeMap<>();
        nodeNanos.forEach((method, sum) -> nanos.put(method, sum.get()));
        return nanos;
    }

    /** eth_getLogs calls refused as too large since the start or the last {@link #reset()}. */
    public long refused() {
        return refused.get();
    }

    /** Forgets the calls counted so far. */
    public void reset() {
        calls.clear();
        nodeNanos.clear();
        refused.set(0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            JsonNode request = JSON.readTree(body);
            String method = request.path("method").asString("");
            calls.computeIfAbsent(method, name -> new AtomicLong()).incrementAndGet();
            byte[] reply = tooLarge(request)
                    ? refusal(request)
                    : refuseBroadcasts && method.equals("eth_sendRawTransaction")
                            ? error(request, -32000, "the proxy refuses broadcasts")
                            : forward(method, body);
            if (method.equals("eth_blockNumber")) {
                reply = heldBack(reply);
            }
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
        return error(request, -32005, "query returned more than 10000 results");
    }

    private static byte[] error(JsonNode request, int code, String message) {
        return ("{\"jsonrpc\":\"2.0\",\"id\":" + request.path("id") + ",\"error\":{\"code\":" + code + ",\"message\":\""
                        + message + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private byte[] heldBack(byte[] reply) {
        long shown = headShown.get();
        JsonNode answer = JSON.readTree(reply);
        if (shown == Long.MAX_VALUE || !answer.path("result").isString()) {
            return reply;
        }
        long head = Long.decode(answer.path("result").asString());
        ((ObjectNode) answer).put("result", "0x" + Long.toHexString(Math.min(head, shown)));
        return JSON.writeValueAsBytes(answer);
    }

    private byte[] forward(String method, byte[] body) throws IOException {
        long start = System.nanoTime();
        HttpRequest request = HttpRequest.newBuilder(node)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray()).body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } finally {
            nodeNanos.computeIfAbsent(method, name -> new AtomicLong()).addAndGet(System.nanoTime() - start);
        }
    }

    /** Stops answering; the node is left as it is. */
    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
