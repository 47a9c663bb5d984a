package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PortsTest {

    private final StackConsole console = new StackConsole(new PrintStream(new ByteArrayOutputStream(), true));

    @Test
    void everyZeroBecomesAFreePortOfItsOwn() {
        Ports plan = Ports.assign(requested(0), port -> false, Set.of());

        assertThat(Arrays.stream(StackPort.values()).map(plan::port).collect(Collectors.toSet()))
                .hasSize(StackPort.values().length)
                .allMatch(port -> port > 0);
        assertThat(plan.url(StackPort.ADMIN)).isEqualTo("http://127.0.0.1:" + plan.port(StackPort.ADMIN));
    }

    @Test
    void withTwoInstancesEachServicePortGetsTwoFreeInstancePortsOfItsOwn() {
        Ports plan = Ports.assign(requested(0), port -> false, Set.of())
                .withInstances(2, port -> port == StackPort.WEBHOOKS);

        List<Integer> instancePorts = Arrays.stream(StackPort.values())
                .flatMap(what -> plan.instancePorts(what).stream())
                .toList();
        assertThat(instancePorts)
                .as("gateway, admin, payment links, subscriptions, notifications, chain-watcher: two each")
                .hasSize(12)
                .doesNotHaveDuplicates()
                .doesNotContainAnyElementsOf(
                        Arrays.stream(StackPort.values()).map(plan::port).toList());
        assertThat(plan.instancePort(StackPort.ADMIN, 2))
                .isEqualTo(plan.instancePorts(StackPort.ADMIN).get(1));
        assertThat(plan.instancePorts(StackPort.KAFKA)).isEmpty();
        assertThat(plan.instancePorts(StackPort.WEBHOOKS))
                .as("run by you: one, on its port")
                .isEmpty();
        assertThat(plan.instancePort(StackPort.WEBHOOKS, 1)).isEqualTo(plan.port(StackPort.WEBHOOKS));

        Ports single = Ports.assign(requested(0), port -> false, Set.of()).withInstances(1, port -> false);
        assertThat(single.instancePort(StackPort.GATEWAY, 1)).isEqualTo(single.port(StackPort.GATEWAY));
        assertThat(single.instancePorts(StackPort.GATEWAY)).isEmpty();
    }

    @Test
    void withoutAnEmbeddedPostgresItsPortIsLeftOut() {
        Ports plan = Ports.assign(requested(0), port -> false, Set.of(StackPort.EMBEDDED_POSTGRES));

        assertThatThrownBy(() -> plan.port(StackPort.EMBEDDED_POSTGRES))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("no port planned for the embedded PostgreSQL");
        assertThat(plan.port(StackPort.KAFKA)).isPositive();
    }

    @Test
    void withoutTheDevChainItsPortAndChainWatchersAreLeftOutEvenWhenTaken() throws IOException {
        try (ServerSocket taken = bound()) {
            Map<StackPort, Integer> requested = requested(0);
            requested.put(StackPort.DEV_CHAIN, taken.getLocalPort());

            Ports plan = Ports.assign(requested, port -> false, Set.of(StackPort.DEV_CHAIN, StackPort.CHAIN_WATCHER));

            assertThatThrownBy(() -> plan.port(StackPort.DEV_CHAIN)).hasMessage("no port planned for the dev chain");
            assertThatThrownBy(() -> plan.port(StackPort.CHAIN_WATCHER))
                    .hasMessage("no port planned for the chain-watcher");
        }
    }

    @Test
    void aTakenDevChainPortIsNamedWithItsVariable() throws IOException {
        try (ServerSocket taken = bound()) {
            Map<StackPort, Integer> requested = requested(0);
            requested.put(StackPort.DEV_CHAIN, taken.getLocalPort());

            assertThatThrownBy(() -> Ports.assign(requested, what -> false, Set.of()))
                    .isInstanceOf(StackStartException.class)
                    .hasMessageStartingWith("A port the stack needs is already in use: port " + taken.getLocalPort()
                            + " (dev chain, STACK_CHAIN_PORT). Stop what holds it");
        }
    }

    @Test
    void aFreeFixedPortIsKept() throws IOException {
        int free;
        try (ServerSocket probe = bound()) {
            free = probe.getLocalPort();
        }
        Map<StackPort, Integer> requested = requested(0);
        requested.put(StackPort.GATEWAY, free);

        assertThat(Ports.assign(requested, port -> false, Set.of()).port(StackPort.GATEWAY))
                .isEqualTo(free);
    }

    @Test
    void aTakenFixedPortIsNamedWithTheVariableThatMovesIt() throws IOException {
        try (ServerSocket blocker = bound()) {
            int port = blocker.getLocalPort();
            Map<StackPort, Integer> requested = requested(0);
            requested.put(StackPort.KAFKA, port);

            assertThatThrownBy(() -> Ports.assign(requested, what -> false, Set.of()))
                    .isInstanceOf(StackStartException.class)
                    .hasMessageStartingWith("A port the stack needs is already in use: port " + port
                            + " (Kafka, STACK_KAFKA_PORT). Stop what holds it (`ss -ltnp` names it; kill <pid>, or "
                            + "Ctrl-C in its terminal), or give the stack other ports with the variables named above.");
        }
    }

    @Test
    void severalTakenPortsMakeOneMessage() throws IOException {
        try (ServerSocket gateway = bound();
                ServerSocket admin = bound()) {
            Map<StackPort, Integer> requested = requested(0);
            requested.put(StackPort.GATEWAY, gateway.getLocalPort());
            requested.put(StackPort.ADMIN, admin.getLocalPort());

            assertThatThrownBy(() -> Ports.assign(requested, what -> false, Set.of()))
                    .hasMessageStartingWith("Ports the stack needs are already in use: port " + gateway.getLocalPort()
                            + " (gateway, STACK_GATEWAY_PORT); port " + admin.getLocalPort()
                            + " (gateway admin API, STACK_ADMIN_PORT). ")
                    .hasMessageContaining("Stop what holds them");
        }
    }

    @Test
    void thePortOfAServiceYouRunYourselfMayBeTakenAlready() throws IOException {
        try (ServerSocket yours = bound()) {
            Map<StackPort, Integer> requested = requested(0);
            requested.put(StackPort.PAYMENT_LINKS, yours.getLocalPort());

            Ports plan = Ports.assign(requested, what -> what == StackPort.PAYMENT_LINKS, Set.of());

            assertThat(plan.port(StackPort.PAYMENT_LINKS)).isEqualTo(yours.getLocalPort());
        }
    }

    private static Map<StackPort, Integer> requested(int port) {
        Map<StackPort, Integer> requested = new EnumMap<>(StackPort.class);
        for (StackPort what : StackPort.values()) {
            requested.put(what, port);
        }
        return requested;
    }

    private static ServerSocket bound() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(0));
        return socket;
    }
}
