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
    private final Map<StackPort, List<Integer>> instancePorts = new EnumMap<>(StackPort.class);

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

    /**
     * With more than one instance of each service: a free port for each instance on each port of a service the stack
     * runs, the planned port becoming the address that balances the instances ({@link ServiceBalancer}).
     */
    Ports withInstances(int count, Predicate<StackPort> runByYou) {
        if (count > 1) {
            for (StackPort what : ports.keySet()) {
                if (what.service != null && !runByYou.test(what)) {
                    List<Integer> assigned = new ArrayList<>();
                    for (int instance = 1; instance <= count; instance++) {
                        assigned.add(unusedFreePort(assigned));
                    }
                    instancePorts.put(what, List.copyOf(assigned));
                }
            }
        }
        return this;
    }

    /** Where an instance of a service listens: the planned port itself when the stack runs one of each. */
    int instancePort(StackPort what, int instance) {
        List<Integer> assigned = instancePorts.get(what);
        return assigned == null ? port(what) : assigned.get(instance - 1);
    }

    /** The ports of a balanced address's instances; empty when the stack runs one instance of each service. */
    List<Integer> instancePorts(StackPort what) {
        return instancePorts.getOrDefault(what, List.of());
    }

    /** A free port that no listener of this plan has yet, nor {@code taken}. */
    private int unusedFreePort(List<Integer> taken) {
        while (true) {
            int port = freePort();
            if (!ports.containsValue(port)
                    && !taken.contains(port)
                    && instancePorts.values().stream().noneMatch(assigned -> assigned.contains(port))) {
                return port;
            }
        }
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
