package dev.cryptopay.webhooks.delivery;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hostile webhook endpoint: accepts every TCP connection on 127.0.0.1, reads whatever arrives, and never answers.
 * Counts the connections open right now and the most ever open at once; {@link #close()} drops them all.
 */
final class Tarpit implements AutoCloseable {

    private final ServerSocket server;
    private final List<Socket> connections = new CopyOnWriteArrayList<>();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger mostOpen = new AtomicInteger();

    Tarpit() {
        try {
            server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        daemon("tarpit-accept", this::accept);
    }

    String url() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/tarpit";
    }

    /** Connections open now: attempts hanging on this endpoint. */
    int open() {
        return open.get();
    }

    /** The most connections that were ever open at once. */
    int mostOpen() {
        return mostOpen.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                connections.add(socket);
                mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
                daemon("tarpit-hold", () -> hold(socket));
            } catch (IOException closed) {
                return;
            }
        }
    }

    /** Reads until the caller gives up (or the tarpit closes); never writes a byte. */
    private void hold(Socket socket) {
        try (socket;
                InputStream in = socket.getInputStream()) {
            in.transferTo(OutputStream.nullOutputStream());
        } catch (IOException ended) {
            // the caller hung up, or the tarpit was closed
        } finally {
            open.decrementAndGet();
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
        for (Socket socket : connections) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }

    private static void daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }
}
