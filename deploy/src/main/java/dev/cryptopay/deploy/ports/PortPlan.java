package dev.cryptopay.deploy.ports;

import dev.cryptopay.deploy.StackPort;
import dev.cryptopay.deploy.StackStartException;
import dev.cryptopay.deploy.console.StackConsole;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** The ports of one stack run, by what listens there; chosen once at start and kept until the run stops. */
public final class PortPlan {

    private static final long ORPHAN_EXIT_WAIT_SECONDS = 20;

    private final Map<StackPort, Integer> ports;

    private PortPlan(Map<StackPort, Integer> ports) {
        this.ports = ports;
    }

    /**
     * A free port for each requested 0, and each fixed port checked: a port still held by a service of a launcher
     * that was killed is waited for (such a service exits by itself within seconds).
     *
     * @param requested        the port each listener asks for, 0 for a free one
     * @param runByYou         listeners of services you run yourself ({@code STACK_SKIP}): their ports are taken as
     *                         they are, maybe by the service already
     * @param leftOut          listeners this run does not have (the embedded PostgreSQL when an external one is
     *                         used; the dev chain and chain-watcher when the chain does not run): no port for them
     * @throws StackStartException one message naming every fixed port that is taken, and by what
     */
    public static PortPlan assign(
            Map<StackPort, Integer> requested,
            Predicate<StackPort> runByYou,
            Set<StackPort> leftOut,
            StackConsole console) {
        Map<StackPort, Integer> ports = new EnumMap<>(StackPort.class);
        PortConflicts conflicts = new PortConflicts();
        for (StackPort what : StackPort.values()) {
            if (leftOut.contains(what)) {
                continue;
            }
            int port = requested.get(what);
            if (port == 0) {
                int free;
                do {
                    free = LocalPorts.freePort();
                } while (ports.containsValue(free));
                ports.put(what, free);
                continue;
            }
            if (!runByYou.test(what) && !LocalPorts.isFree(port) && !awaitOrphanedService(port, console)) {
                conflicts.add(what, port, PortHolder.of(port));
            }
            ports.put(what, port);
        }
        conflicts.throwIfAny();
        return new PortPlan(ports);
    }

    /** The port of that listener. */
    public int port(StackPort what) {
        Integer port = ports.get(what);
        if (port == null) {
            throw new IllegalStateException("no port planned for the " + what.label());
        }
        return port;
    }

    /** {@code http://127.0.0.1:<port>}. */
    public String url(StackPort what) {
        return "http://127.0.0.1:" + port(what);
    }

    /**
     * A service of a launcher that was killed exits by itself within seconds (its parent-watch agent notices); wait
     * for that rather than fail. True when the port became free.
     */
    private static boolean awaitOrphanedService(int port, StackConsole console) {
        Optional<PortHolder> holder = PortHolder.of(port);
        Optional<Long> launcher = holder.filter(PortHolder::isStackService).flatMap(PortHolder::launcherPid);
        if (launcher.isEmpty()
                || ProcessHandle.of(launcher.get()).map(ProcessHandle::isAlive).orElse(false)) {
            return false; // not a stack service, or its launcher is alive: a stack that really runs
        }
        console.awaitingOrphanedService(port, holder.get().pid());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ORPHAN_EXIT_WAIT_SECONDS);
        while (System.nanoTime() < deadline) {
            if (LocalPorts.isFree(port)) {
                return true;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }
}
