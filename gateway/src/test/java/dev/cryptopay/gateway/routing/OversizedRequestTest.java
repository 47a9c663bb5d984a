package dev.cryptopay.gateway.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.gateway.support.GatewayTestBase;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Requests too large to be honest are answered with a 4xx by the web server before any filter runs: a header block
 * over 8 KiB (431) and a request line over 4 KiB (414). Sent over a raw socket, as an attacker would.
 */
class OversizedRequestTest extends GatewayTestBase {

    @Test
    void anOversizedHeaderIsRefusedWith431() throws Exception {
        String status = statusLineOf("GET /api/v1/payment_links HTTP/1.1\r\nHost: localhost\r\nX-Junk: "
                + "a".repeat(20_000) + "\r\nConnection: close\r\n\r\n");
        assertThat(status).startsWith("HTTP/1.1 431");
    }

    @Test
    void anOversizedQueryStringIsRefusedWith414() throws Exception {
        String status = statusLineOf("GET /api/v1/payment_links?q=" + "b".repeat(10_000)
                + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertThat(status).startsWith("HTTP/1.1 414");
    }

    @Test
    void aNormalRequestStillGetsThrough() throws Exception {
        String status =
                statusLineOf("GET /api/v1/payment_links HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertThat(status).startsWith("HTTP/1.1 401");
    }

    private String statusLineOf(String request) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            String line = in.readLine();
            return line == null ? "" : line;
        }
    }
}
