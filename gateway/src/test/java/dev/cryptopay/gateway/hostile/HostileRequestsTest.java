package dev.cryptopay.gateway.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.gateway.support.GatewayTestBase;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import dev.cryptopay.testsupport.hostile.HostileCorpus;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The gateway's own layer under the shared hostile corpus (test-support {@code hostile/}): hostile authentication
 * headers, hostile bodies on signed and {@code merchant_key} routes, and malformed HTTP sent over a raw socket. Every
 * answer is a 2xx (forwarded to the echo upstream) or a 4xx, within five seconds; never a 5xx or no answer.
 */
class HostileRequestsTest extends GatewayTestBase {

    private static final Duration LIMIT = Duration.ofSeconds(5);

    private final List<String> failures = new ArrayList<>();
    private int cases;

    @Test
    void hostileAuthenticationHeadersAreRefusedWith4xx() {
        MerchantKey key = admin.newMerchantKey();
        List<String> values = new ArrayList<>(List.of(
                "",
                "mk_test_",
                "mk_test_" + "A".repeat(31),
                "pk_test_" + "A".repeat(32),
                "x".repeat(4000),
                "-1",
                "0",
                "99999999999999999999",
                "1e10",
                "2026-01-01T00:00:00Z",
                "1700000000.5",
                "0x10",
                "%00",
                "Ünïcode",
                "=====",
                "AAAA",
                "A".repeat(1000)));
        HostileCorpus.parameterValues().forEach(value -> values.add(value.text()));
        for (String value : values) {
            for (String header : List.of("X-API-Key", "X-API-Signature", "X-API-Timestamp")) {
                check(
                        "GET /payment_links with " + header + "=" + abbreviate(value),
                        () -> SignedRequest.of("GET", "/payment_links")
                                .header(header, value)
                                .send(client, baseUrl(), key));
            }
        }
        assertNoFailures(100);
    }

    @Test
    void hostileBodiesAreForwardedOrRefusedWithoutAServerError() {
        List<String> bodies = new ArrayList<>();
        HostileCorpus.bodies().forEach(body -> bodies.add(body.text()));
        HostileCorpus.values()
                .forEach(value -> bodies.add("{\"payment_name\":\"Tea\",\"amount\":" + value.text() + "}"));
        MerchantKey key = null;
        for (int i = 0; i < bodies.size(); i++) {
            if (i % 5 == 0) {
                key = admin.newMerchantKey(); // a fresh key every few requests keeps under the per-key create limit
            }
            MerchantKey signer = key;
            String body = bodies.get(i);
            check(
                    "signed POST /payment_links body " + abbreviate(body),
                    () -> SignedRequest.of("POST", "/payment_links").body(body).send(client, baseUrl(), signer));
        }
        assertNoFailures(50);
    }

    @Test
    void hostileScopesAndSecurityLogQueriesAreAnsweredWithoutAServerError() {
        List<String> bodies = new ArrayList<>();
        HostileCorpus.bodies().forEach(body -> bodies.add(body.text()));
        HostileCorpus.values().forEach(value -> bodies.add("{\"scopes\":" + value.text() + "}"));
        HostileCorpus.values().forEach(value -> bodies.add("{\"scopes\":[" + value.text() + "]}"));
        MerchantKey key = null;
        for (int i = 0; i < bodies.size(); i++) {
            if (i % 20 == 0) {
                key = admin.newMerchantKey(); // under the account group's per-key limit
            }
            MerchantKey signer = key;
            String body = bodies.get(i);
            check(
                    "signed POST /account/keys body " + abbreviate(body),
                    () -> SignedRequest.of("POST", "/account/keys").body(body).send(client, baseUrl(), signer));
        }
        MerchantKey reader = admin.newMerchantKey();
        List<String> values = new ArrayList<>();
        HostileCorpus.parameterValues().forEach(value -> values.add(value.text()));
        for (int i = 0; i < values.size(); i++) {
            if (i % 20 == 0) {
                reader = admin.newMerchantKey();
            }
            MerchantKey signer = reader;
            String query =
                    "page_size=" + java.net.URLEncoder.encode(values.get(i), java.nio.charset.StandardCharsets.UTF_8);
            check(
                    "signed GET /account/security_events?" + abbreviate(query),
                    () -> SignedRequest.of("GET", "/account/security_events?" + query)
                            .send(client, baseUrl(), signer));
        }
        assertNoFailures(50);
    }

    @Test
    void hostileMerchantKeyBodiesAreRefusedWith4xx() {
        List<String> bodies = new ArrayList<>();
        HostileCorpus.bodies().forEach(body -> bodies.add(body.text()));
        HostileCorpus.values().forEach(value -> bodies.add("{\"merchant_key\":" + value.text() + "}"));
        HostileCorpus.values()
                .forEach(value ->
                        bodies.add("{\"merchant_key\":\"mk_test_" + "A".repeat(32) + "\",\"x\":" + value.text() + "}"));
        for (String body : bodies) {
            check(
                    "POST /public/subscriptions/link/payment body " + abbreviate(body),
                    () -> client.post()
                            .uri(baseUrl() + "/api/v1/public/subscriptions/link/payment")
                            .contentType(MediaType.APPLICATION_JSON)
                            .bodyValue(body)
                            .exchange());
        }
        assertNoFailures(50);
    }

    @Test
    void malformedHttpIsRefusedWith4xx() throws Exception {
        List<String> requests = List.of(
                "GET /api/v1/payment_links?page=%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /api/v1/payment_links/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /api/v1/payment_links?%00=%00 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /api/v1/../../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /api/v1/payment_links HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n",
                "BREW /api/v1/payment_links HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                "GET /api/v1/payment_links HTTP/1.1\r\nHost: x\r\nNo colon here\r\nConnection: close\r\n\r\n",
                "GET /api/v1/payment_links HTTP/1.1\r\nHost: x\r\nX-API-Key: a\u0000b\r\nConnection: close\r\n\r\n",
                "POST /api/v1/payment_links HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\nConnection: close\r\n\r\n",
                "POST /api/v1/payment_links HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n"
                        + "Connection: close\r\n\r\n",
                "POST /api/v1/payment_links HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                        + "Connection: close\r\n\r\nzz\r\n\r\n",
                "POST /api/v1/public/subscriptions/link/payment HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 2000000\r\nConnection: close\r\n\r\n{",
                "GET /api/v1/payment_links HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n");
        for (String request : requests) {
            cases++;
            long started = System.nanoTime();
            String status;
            try {
                status = statusLineOf(request);
            } catch (java.net.SocketTimeoutException noAnswer) {
                status = "no answer";
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            String label = abbreviate(request.substring(0, request.indexOf('\r')));
            if (!status.matches("HTTP/\\d\\.\\d 4\\d\\d.*") && !status.isEmpty()) {
                failures.add(label + ": answered " + status);
            } else if (took.compareTo(LIMIT) > 0) {
                failures.add(label + ": took " + took.toMillis() + " ms");
            }
        }
        assertNoFailures(10);
    }

    private void check(String label, Supplier<WebTestClient.ResponseSpec> request) {
        cases++;
        long started = System.nanoTime();
        int status;
        try {
            status = request.get().expectBody().returnResult().getStatus().value();
        } catch (RuntimeException | AssertionError noAnswer) {
            failures.add(label + ": no answer (" + noAnswer.getMessage() + ")");
            return;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        if (status >= 500 || status < 200) {
            failures.add(label + ": answered " + status);
        } else if (took.compareTo(LIMIT) > 0) {
            failures.add(label + ": took " + took.toMillis() + " ms");
        }
    }

    private void assertNoFailures(int minimumCases) {
        assertThat(failures).as("hostile requests that failed").isEmpty();
        assertThat(cases).isGreaterThanOrEqualTo(minimumCases);
    }

    /** The status line, or empty when the server closed the connection without answering (allowed for junk). */
    private String statusLineOf(String request) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) LIMIT.toMillis() + 1000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b = in.read(); b != -1 && b != '\n'; b = in.read()) {
                line.write(b);
            }
            return line.toString(StandardCharsets.ISO_8859_1).trim();
        }
    }

    private static String abbreviate(String text) {
        String oneLine = text.replace("\r", "\\r").replace("\n", "\\n").replace("\u0000", "\\0");
        return oneLine.length() <= 100 ? oneLine : oneLine.substring(0, 97) + "...";
    }
}
