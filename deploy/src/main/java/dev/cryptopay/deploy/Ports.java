package dev.cryptopay.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/** The ports of one stack run, by what listens there; chosen once at start and kept until the run stops. */
final class Ports {

    private final Map<StackPort, Integer> ports = new EnumMap<>(StackPort.class);

    /**
     * A free port for each requested 0; each fixed port checked, except those of services you run yourself (they may
     * hold it already).
     *
     * @param leftOut listeners this run does not have (no embedded PostgreSQL, no dev chain): no port for them
     * @throws StackStartException naming every fixed port in use and the variable that moves it
     */
    static Ports assign(Map<StackPort, Integer> requested, Predicate<StackPort> runByYou, Set<StackPort> leftOut) {
        Ports assigned = new Ports();
        List<String> taken = new ArrayList<>();
        for (StackPort what : StackPort.values()) {
            if (leftOut.contains(what)) {
                continue;
            }
            int port = requested.get(what);
            if (port == 0) {
                do {
                    port = freePort();
                } while (assigned.ports.containsValue(port));
            } else if (!runByYou.test(what) && !isFree(port)) {
                taken.add("port " + port + " (" + what.label + ", " + what.variable + ")");
            }
            assigned.ports.put(what, port);
        }
        if (!taken.isEmpty()) {
            boolean one = taken.size() == 1;
            throw new StackStartException((one ? "A port the stack needs is" : "Ports the stack needs are")
                    + " already in use: " + String.join("; ", taken) + ". Stop what holds " + (one ? "it" : "them")
                    + " (`ss -ltnp` names it; kill <pid>, or Ctrl-C in its terminal), or give the stack other ports "
                    + "with the variables named above.");
        }
        return assigned;
    }

    int port(StackPort what) {
        Integer port = ports.get(what);
        if (port == null) {
            throw new IllegalStateException("no port planned for the " + what.label);
        }
        return port;
    }

    /** Whether the stack runs this port's process (the dev chain may be left out). */
    boolean planned(StackPort what) {
        return ports.containsKey(what);
    }

    String url(StackPort what) {
        return "http://127.0.0.1:" + port(what);
    }

    private static int freePort() {
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
}
