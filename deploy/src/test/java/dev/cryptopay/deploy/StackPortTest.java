package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class StackPortTest {

    @Test
    void eachServiceListensOnThePortNamedAfterIt() {
        for (StackService service : StackService.values()) {
            assertThat(StackPort.of(service).label()).isEqualTo(service.serviceName());
            assertThat(StackPort.of(service).service()).contains(service);
        }
    }

    @Test
    void theAdminApiIsTheGatewaysAndKafkaPostgresAndTheChainAreNoServices() {
        assertThat(StackPort.ADMIN.service()).contains(StackService.GATEWAY);
        assertThat(StackPort.KAFKA.service()).isEmpty();
        assertThat(StackPort.EMBEDDED_POSTGRES.service()).isEmpty();
        assertThat(StackPort.DEV_CHAIN.service()).isEmpty();
        assertThat(StackPort.DEV_CHAIN.variable()).isEqualTo("STACK_CHAIN_PORT");
        assertThat(StackPort.DEV_CHAIN.defaultPort()).isEqualTo(8545);
        assertThat(StackPort.CHAIN_WATCHER.defaultPort())
                .as("chain-watcher's own default (application.yml)")
                .isEqualTo(8084);
    }

    @Test
    void everyPortHasItsOwnVariableAndDefault() {
        assertThat(Arrays.stream(StackPort.values()).map(StackPort::variable))
                .doesNotHaveDuplicates()
                .allMatch(variable -> variable.startsWith("STACK_") && variable.endsWith("_PORT"));
        assertThat(Arrays.stream(StackPort.values()).map(StackPort::defaultPort))
                .doesNotHaveDuplicates();
    }
}
