package dev.cryptopay.gateway.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real HTTP upstream for tests: answers every request with JSON describing exactly what arrived (method, raw path,
 * raw query, headers, Base64 of the body bytes). A path containing {@code /slow} answers after {@value #SLOW_MILLIS} ms.
 * A path ending in {@code /events} answers a Server-Sent Events stream: one {@code echo} event carrying that JSON,
 * then nothing, kept open until the caller goes away (to show that a stream is passed on as it is written).
 */
public final class EchoServer implements AutoCloseable {

    public static final long SLOW_MILLIS = 3000;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String name;
    private final DisposableServer server;

    private EchoServer(String name, DisposableServer server) {
        this.name = name;
        this.server = server;
    }

    public static EchoServer start(String name) {
        DisposableServer server = HttpServer.create()
                .host("127.0.0.1")
                .port(0)
                .handle((request, response) -> request.receive()
                        .aggregate()
                        .asByteArray()
                        .defaultIfEmpty(new byte[0])
                        .flatMap(body -> {
                            String uri = request.uri();
                            int q = uri.indexOf('?');
                            Map<String, Object> echo = new LinkedHashMap<>();
                            echo.put("service", name);
                            echo.put("method", request.method().name());
                            echo.put("path", q < 0 ? uri : uri.substring(0, q));
                            echo.put("query", q < 0 ? null : uri.substring(q + 1));
                            Map<String, List<String>> headers = new LinkedHashMap<>();
                            request.requestHeaders()
                                    .forEach(entry -> headers.computeIfAbsent(
                                                    entry.getKey().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                                            .add(entry.getValue()));
                            echo.put("headers", headers);
                            echo.put("body_base64", Base64.getEncoder().encodeToString(body));
                            byte[] bytes = JSON.writeValueAsBytes(echo);
                            if (echo.get("path").toString().endsWith("/events")) {
                                String event = "event:echo\ndata:" + new String(bytes, StandardCharsets.UTF_8) + "\n\n";
                                return response.header("Content-Type", "text/event-stream")
                                        .sendString(Flux.concat(Mono.just(event), Flux.never()))
                                        .then();
                            }
                            Mono<Void> delay = uri.contains("/slow")
                                    ? Mono.delay(Duration.ofMillis(SLOW_MILLIS)).then()
                                    : Mono.empty();
                            return delay.then(response.header("Content-Type", "application/json")
                                    .header("X-Upstream", name)
                                    .sendByteArray(Mono.just(bytes))
                                    .then());
                        }))
                .bindNow();
        return new EchoServer(name, server);
    }

    public String name() {
        return name;
    }

    public String url() {
        return "http://127.0.0.1:" + server.port();
    }

    @Override
    public void close() {
        server.disposeNow();
    }
}
