package dev.cryptopay.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a Kubernetes Service is to its pods, for a local stack that runs more than one instance of each service: an
 * address on 127.0.0.1 that hands each new TCP connection to the next instance in turn, passing over one that refuses
 * it (killed, or not listening yet). A connection open to an instance that dies is closed with it, as a client's
 * connection to a dead pod is. Bytes are copied both ways as they come; nothing is parsed, nothing retried.
 */
final class ServiceBalancer implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_MILLIS = 1000;
    private static final int BUFFER_BYTES = 16 * 1024;

    private final String name;
    private final ServerSocket server;
    private final List<Integer> instancePorts;
    private final Executor executor;
    private final AtomicInteger next = new AtomicInteger();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private ServiceBalancer(String name, ServerSocket server, List<Integer> instancePorts, Executor executor) {
        this.name = name;
        this.server = server;
        this.instancePorts = List.copyOf(instancePorts);
        this.executor = executor;
    }

    /**
     * Listens on {@code port} of 127.0.0.1 for the instances on {@code instancePorts}, its threads from
     * {@code executor} (one accepting, two for each open connection).
     */
    static ServiceBalancer start(String name, int port, List<Integer> instancePorts, Executor executor) {
        try {
            ServerSocket server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            ServiceBalancer balancer = new ServiceBalancer(name, server, instancePorts, executor);
            executor.execute(balancer::accept);
            return balancer;
        } catch (IOException e) {
            throw new StackStartException(
                    "Cannot listen on port " + port + " for the instances of " + name + ": " + e.getMessage());
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                executor.execute(() -> connect(client));
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("[stack] the " + name + " address stopped accepting: " + e.getMessage());
                }
                return;
            }
        }
    }

    /** Connects the client to the next instance that accepts, or closes it when none does. */
    private void connect(Socket client) {
        Socket upstream = null;
        for (int tried = 0; tried < instancePorts.size() && upstream == null; tried++) {
            int port = instancePorts.get(Math.floorMod(next.getAndIncrement(), instancePorts.size()));
            upstream = connectTo(port);
        }
        if (upstream == null || closed) {
            closeQuietly(client);
            closeQuietly(upstream);
            return;
        }
        open.add(client);
        open.add(upstream);
        Socket instance = upstream;
        executor.execute(() -> copy(client, instance));
        copy(instance, client);
    }

    private static Socket connectTo(int port) {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_TIMEOUT_MILLIS);
            return socket;
        } catch (IOException refused) {
            closeQuietly(socket);
            return null;
        }
    }

    /**
     * Copies until either side ends, then closes both: the other direction's copy ends with it. Each direction sets
     * {@code TCP_NODELAY} on the socket it reads, so both sockets have it.
     */
    private void copy(Socket from, Socket to) {
        byte[] buffer = new byte[BUFFER_BYTES];
        try {
            from.setTcpNoDelay(true);
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            // the connection ended on one side: closed on both below
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    /** Stops listening and closes every open connection. */
    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        open.forEach(ServiceBalancer::closeQuietly);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            // closing what already broke
        }
    }
}
