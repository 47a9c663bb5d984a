package dev.cryptopay.testsupport;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;

/**
 * The JDK's HTTP server on a free loopback port, with {@code TCP_NODELAY} on its connections. Without it the server
 * writes a response's headers and body in two segments, and Nagle's algorithm holds the body back until the client's
 * delayed acknowledgement of the headers: about 40 ms added to every answer (measured: the keeper benchmark's
 * collects took 230 ms each through the RPC proxy instead of 50 ms). The setting is read once per JVM, when the first
 * such server starts, so every stand-in server of the tests and benchmarks starts here.
 */
public final class LoopbackHttpServer {

    private LoopbackHttpServer() {}

    /** A new server bound to 127.0.0.1 on a free port, not started. */
    public static HttpServer create() {
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        try {
            return HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
