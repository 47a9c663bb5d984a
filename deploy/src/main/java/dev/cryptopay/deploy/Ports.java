package dev.cryptopay.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/** The ports of one stack run, by what listens there; chosen once at start and kept until the run stops. */
final class Ports {

    private final Map<StackPort, Integer> ports;

    private Ports(Map<StackPort, Integer> ports) {
        this.ports = ports;
    }

    /**
     * A free port for each requested 0; each fixed port checked, except those of services you run yourself (they may
     * hold it already).
     *
     * @param leftOut listeners this run does not have (no embedded PostgreSQL, no dev chain): no port for them
     * @throws StackStartException naming every fixed port in use and the variable that moves it
     */
    static Ports assign(Map<StackPort, Integer> requested, Predicate<StackPort> runByYou, Set<StackPort> leftOut) {
        Map<StackPort, Integer> ports = new EnumMap<>(StackPort.class);
        List<String> taken = new ArrayList<>();
        for (StackPort what : StackPort.values()) {
            if (leftOut.contains(what)) {
                continue;
            }
            int port = requested.get(what);
            if (port == 0) {
                do {
                    port = freePort();
                } while (ports.containsValue(port));
            } else if (!runByYou.test(what) && !isFree(port)) {
                taken.add("port " + port + " (" + what.label() + ", " + what.variable() + ")");
            }
            ports.put(what, port);
        }
        if (!taken.isEmpty()) {
            throw new StackStartException(
                    (taken.size() == 1 ? "A port the stack needs is" : "Ports the stack needs are")
                            + " already in use: " + String.join("; ", taken) + ". Stop what holds "
                            + (taken.size() == 1 ? "it" : "them")
                            + " (`ss -ltnp` names it; kill <pid>, or Ctrl-C in its "
                            + "terminal), or give the stack other ports with the variables named above.");
        }
        return new Ports(ports);
    }

    int port(StackPort what) {
        Integer port = ports.get(what);
        if (port == null) {
            throw new IllegalStateException("no port planned for the " + what.label());
        }
        return port;
    }

    String url(StackPort what) {
        return "http://127.0.0.1:" + port(what);
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free local port", e);
        }
    }

    /** Binds the wildcard address, which fails when anything listens on that port on any local address. */
    static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static boolean accepts(String host, int port, int timeoutMillis) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
