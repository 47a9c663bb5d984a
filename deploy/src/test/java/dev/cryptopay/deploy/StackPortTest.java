package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class StackPortTest {

    @Test
    void eachServiceListensOnThePortNamedAfterIt() {
        for (StackService service : StackService.values()) {
            assertThat(StackPort.of(service).label).isEqualTo(service.serviceName);
            assertThat(StackPort.of(service).service).isEqualTo(service);
        }
    }

    @Test
    void theAdminApiIsTheGatewaysAndKafkaPostgresAndTheChainAreNoServices() {
        assertThat(StackPort.ADMIN.service).isEqualTo(StackService.GATEWAY);
        assertThat(StackPort.KAFKA.service).isNull();
        assertThat(StackPort.EMBEDDED_POSTGRES.service).isNull();
        assertThat(StackPort.DEV_CHAIN.service).isNull();
        assertThat(StackPort.DEV_CHAIN.variable).isEqualTo("STACK_CHAIN_PORT");
        assertThat(StackPort.DEV_CHAIN.defaultPort).isEqualTo(8545);
        assertThat(StackPort.CHAIN_WATCHER.defaultPort)
                .as("chain-watcher's own default (application.yml)")
                .isEqualTo(8084);
    }

    @Test
    void everyPortHasItsOwnVariableAndDefault() {
        assertThat(Arrays.stream(StackPort.values()).map(port -> port.variable))
                .doesNotHaveDuplicates()
                .allMatch(variable -> variable.startsWith("STACK_") && variable.endsWith("_PORT"));
        assertThat(Arrays.stream(StackPort.values()).map(port -> port.defaultPort))
                .doesNotHaveDuplicates();
    }
}
