package dev.cryptopay.deploy.ports;

import dev.cryptopay.deploy.StackPort;
import dev.cryptopay.deploy.StackStartException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The fixed ports found taken, as one message naming each port, the variable that moves it and what holds it; when
 * one other local stack holds them all, the message says that instead.
 */
final class PortConflicts {

    private final List<String> taken = new ArrayList<>();
    private final List<Integer> takenPorts = new ArrayList<>();
    private final Set<Long> launchers = new HashSet<>();
    private boolean allByStacks = true;

    void add(StackPort what, int port, Optional<PortHolder> holder) {
        Optional<Long> launcher = holder.flatMap(PortHolder::launcherPid);
        launcher.ifPresent(launchers::add);
        allByStacks &= launcher.isPresent();
        taken.add("port " + port + " (" + what.label() + ", " + what.variable() + ") is taken by "
                + holder.map(PortHolder::describe)
                        .orElse("another process (see `ss -ltnp 'sport = :" + port + "'` or `lsof -i :" + port + "`)"));
        takenPorts.add(port);
    }

    /** @throws StackStartException naming every taken port, when there is one */
    void throwIfAny() {
        if (taken.isEmpty()) {
            return;
        }
        if (allByStacks && launchers.size() == 1) {
            long launcher = launchers.iterator().next();
            throw new StackStartException("A local stack is already running (launcher pid " + launcher + ") and "
                    + "holds port" + (takenPorts.size() > 1 ? "s " : " ") + joinPorts() + ". Use that one, "
                    + "stop it (Ctrl-C in its terminal, or kill " + launcher + "), or run a second stack on other "
                    + "ports and another data directory (STACK_DATA_DIR, STACK_GATEWAY_PORT, STACK_ADMIN_PORT, "
                    + "STACK_PAYMENT_LINKS_PORT, STACK_SUBSCRIPTIONS_PORT, STACK_WEBHOOKS_PORT, "
                    + "STACK_CHAIN_WATCHER_PORT, STACK_KAFKA_PORT, STACK_EMBEDDED_PG_PORT, STACK_CHAIN_PORT).");
        }
        throw new StackStartException((taken.size() == 1
                        ? "A port the stack needs is already in use: "
                        : "Ports the stack needs are already in use: ")
                + String.join("; ", taken)
                + ". Stop what holds " + (taken.size() == 1 ? "it" : "them") + " (kill <pid>, or Ctrl-C in its "
                + "terminal), or give the stack other ports with the variables named above.");
    }

    private String joinPorts() {
        return takenPorts.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
