package dev.cryptopay.deploy.ports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Free-port lookup, "is this port free" and "does something answer there". */
public final class LocalPorts {

    private LocalPorts() {}

    /** A port free on every local address right now (the OS's choice). */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free local port", e);
        }
    }

    /**
     * Whether a server could listen on the port: binds it on the wildcard address, which fails when anything listens
     * on that port on any local address (a service binds the wildcard; Kafka and PostgreSQL bind 127.0.0.1).
     */
    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether something accepts TCP connections at host:port within the timeout. */
    public static boolean accepts(String host, int port, int timeoutMillis) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
