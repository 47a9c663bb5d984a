package dev.cryptopay.e2e;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A merchant's webhook endpoint on 127.0.0.1 (the JDK's own HTTP server): records every delivery and answers 200,
 * or 500 for the first {@code failFirst} calls.
 */
final class WebhookReceiver implements AutoCloseable {

    /** One delivery as received. */
    record Delivery(String eventId, String signature, String timestamp, String timestampedSignature, byte[] body) {

        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final HttpServer server;
    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final AtomicInteger failuresLeft = new AtomicInteger();

    WebhookReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            var headers = exchange.getRequestHeaders();
            deliveries.add(new Delivery(
                    headers.getFirst("X-Service-Event-Id"),
                    headers.getFirst("X-Service-Signature"),
                    headers.getFirst("X-Service-Timestamp"),
                    headers.getFirst("X-Service-Timestamped-Signature"),
                    body));
            int status = failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? 500 : 200;
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    WebhookReceiver failFirst(int calls) {
        failuresLeft.set(calls);
        return this;
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks";
    }

    List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    /** Lowercase hex HMAC-SHA256 computed here with javax.crypto, independently of the service's signer. */
    static String hmac(String secret, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(data));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
