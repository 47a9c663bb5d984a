package dev.cryptopay.service.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.testsupport.PostgresDatabaseExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A keep-alive connection keeps being read after a request that was queued behind a slower one.
 *
 * <p>Reactor Netty 1.3.6/1.3.7 stopped reading such a connection for good when the queued request was answered
 * synchronously (reactor/reactor-netty#4361): the client's next request on it never got an answer. The hostile
 * request tests met it as an occasional {@code GET /actuator/health/liveness} without answer. Here it is provoked on
 * purpose: {@code /actuator/health} (answered later, after a database round trip) and {@code /actuator/health/liveness}
 * (answered at once) are written in one packet, then a third request follows on the same connection.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class KeepAliveTest {

    @RegisterExtension
    static final PostgresDatabaseExtension postgres = new PostgresDatabaseExtension();

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        postgres.registerSpringProperties(registry);
    }

    @LocalServerPort
    int port;

    @Test
    void answersTheNextRequestAfterAQueuedOneWasAnsweredAtOnce() throws IOException {
        for (int round = 0; round < 20; round++) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(5_000);
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();

                out.write((get("/actuator/health") + get("/actuator/health/liveness"))
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertThat(readResponse(in)).as("round %d, first", round).startsWith("HTTP/1.1 200");
                assertThat(readResponse(in)).as("round %d, second", round).startsWith("HTTP/1.1 200");

                out.write(get("/actuator/health/liveness").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertThat(readResponse(in)).as("round %d, third", round).startsWith("HTTP/1.1 200");
            }
        }
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
    }

    /** One response with a Content-Length body (all these are), or "no answer" after the socket's timeout. */
    private static String readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        try {
            while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return "connection closed: " + head.toString(StandardCharsets.US_ASCII);
                }
                head.write(b);
            }
            String headers = head.toString(StandardCharsets.US_ASCII);
            int length = headers.lines()
                    .filter(line -> line.toLowerCase().startsWith("content-length:"))
                    .mapToInt(line -> Integer.parseInt(
                            line.substring(line.indexOf(':') + 1).trim()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no Content-Length in " + headers));
            in.readNBytes(length);
            return headers;
        } catch (SocketTimeoutException noAnswer) {
            return "no answer within 5 s";
        }
    }
}
