package dev.cryptopay.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/** A real HTTP server on a free local port that answers from a script and records every request. */
final class ScriptedServer implements AutoCloseable {

    record Reply(int status, Map<String, String> headers, String body) {
        static Reply json(int status, String body) {
            return new Reply(status, Map.of("Content-Type", "application/json"), body);
        }

        static Reply problem(int status, Map<String, String> headers, String body) {
            java.util.HashMap<String, String> all = new java.util.HashMap<>(headers);
            all.put("Content-Type", "application/problem+json");
            return new Reply(status, all, body);
        }
    }

    record Recorded(String method, String pathAndQuery, Map<String, List<String>> headers, byte[] body) {
        String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0))
                    .findFirst()
                    .orElse(null);
        }
    }

    private final HttpServer server;
    private final Deque<Reply> script = new ArrayDeque<>();
    private final List<Recorded> recorded = new ArrayList<>();

    ScriptedServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    ScriptedServer then(Reply... replies) {
        synchronized (script) {
            script.addAll(List.of(replies));
        }
        return this;
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/api/v1";
    }

    List<Recorded> recorded() {
        synchronized (recorded) {
            return List.copyOf(recorded);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        synchronized (recorded) {
            recorded.add(new Recorded(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getRawPath()
                            + (exchange.getRequestURI().getRawQuery() == null
                                    ? ""
                                    : "?" + exchange.getRequestURI().getRawQuery()),
                    Map.copyOf(exchange.getRequestHeaders()),
                    body));
        }
        Reply reply;
        synchronized (script) {
            reply = script.isEmpty() ? Reply.json(200, "{}") : script.poll();
        }
        byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
        reply.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
