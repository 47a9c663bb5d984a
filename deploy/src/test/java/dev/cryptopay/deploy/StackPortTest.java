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
    void theAdminApiIsTheGatewaysAndKafkaAndPostgresAreNoServices() {
        assertThat(StackPort.ADMIN.service()).contains(StackService.GATEWAY);
        assertThat(StackPort.KAFKA.service()).isEmpty();
        assertThat(StackPort.EMBEDDED_POSTGRES.service()).isEmpty();
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
