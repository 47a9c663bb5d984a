package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StackOptionsTest {

    @Test
    void defaultsAreTheDocumentedPortsLeanJvmFlagsAndFastWebhookRetries() {
        StackOptions options = StackOptions.defaults();

        assertThat(options.ports())
                .containsEntry(StackPort.GATEWAY, 8080)
                .containsEntry(StackPort.ADMIN, 8090)
                .containsEntry(StackPort.PAYMENT_LINKS, 8081)
                .containsEntry(StackPort.SUBSCRIPTIONS, 8082)
                .containsEntry(StackPort.WEBHOOKS, 8083)
                .containsEntry(StackPort.KAFKA, 9092)
                .containsEntry(StackPort.EMBEDDED_POSTGRES, 54329);
        assertThat(options.jvmOptions()).containsExactly("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m");
        assertThat(options.fastWebhookRetries()).isTrue();
        assertThat(options.postgresMode()).isEqualTo(PostgresMode.AUTO);
        assertThat(options.dataDir()).isEqualTo(options.home().resolve(".local"));
        assertThat(options.home().resolve("deploy/pom.xml")).exists();
    }

    @Test
    void environmentVariablesOverrideTheDefaults() {
        StackOptions options = StackOptions.defaults()
                .applyEnvironment(Map.ofEntries(
                        Map.entry("STACK_DATA_DIR", "/tmp/elsewhere"),
                        Map.entry("STACK_POSTGRES", "embedded"),
                        Map.entry("STACK_PG_HOST", "db.local"),
                        Map.entry("STACK_PG_PORT", "6543"),
                        Map.entry("STACK_PG_USER", "me"),
                        Map.entry("STACK_PG_PASSWORD", "secret"),
                        Map.entry("STACK_GATEWAY_PORT", "18080"),
                        Map.entry("STACK_KAFKA_PORT", "0"),
                        Map.entry("STACK_JVM_OPTS", " -Xmx512m  -XX:+UseG1GC "),
                        Map.entry("STACK_FAST_WEBHOOK_RETRIES", "false"),
                        Map.entry("STACK_READY_TIMEOUT", "30"),
                        Map.entry("STACK_SKIP", "gateway, webhook-service")));

        assertThat(options.dataDir()).isEqualTo(Path.of("/tmp/elsewhere"));
        assertThat(options.postgresMode()).isEqualTo(PostgresMode.EMBEDDED);
        assertThat(options.pgHost()).isEqualTo("db.local");
        assertThat(options.pgPort()).isEqualTo(6543);
        assertThat(options.pgUser()).isEqualTo("me");
        assertThat(options.pgPassword()).isEqualTo("secret");
        assertThat(options.port(StackPort.GATEWAY)).isEqualTo(18080);
        assertThat(options.port(StackPort.KAFKA)).isZero();
        assertThat(options.jvmOptions()).containsExactly("-Xmx512m", "-XX:+UseG1GC");
        assertThat(options.fastWebhookRetries()).isFalse();
        assertThat(options.readyTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(options.isSkipped(StackService.GATEWAY)).isTrue();
        assertThat(options.isSkipped(StackService.WEBHOOKS)).isTrue();
        assertThat(options.isSkipped(StackService.PAYMENT_LINKS)).isFalse();
    }

    @Test
    void badValuesNameTheVariable() {
        assertThatThrownBy(() -> StackOptions.defaults().applyEnvironment(Map.of("STACK_GATEWAY_PORT", "80800")))
                .hasMessage("STACK_GATEWAY_PORT must be a number from 0 to 65535, not '80800'");
        assertThatThrownBy(() -> StackOptions.defaults().applyEnvironment(Map.of("STACK_POSTGRES", "docker")))
                .hasMessage("STACK_POSTGRES must be auto, local or embedded, not 'docker'");
        assertThatThrownBy(() -> StackOptions.defaults().applyEnvironment(Map.of("STACK_FAST_WEBHOOK_RETRIES", "yes")))
                .hasMessage("STACK_FAST_WEBHOOK_RETRIES must be true or false, not 'yes'");
        assertThatThrownBy(() -> StackOptions.defaults().applyEnvironment(Map.of("STACK_SKIP", "payments")))
                .hasMessageStartingWith("STACK_SKIP: no service 'payments'; the stack runs gateway, "
                        + "payment-links-service, subscriptions-service, webhook-service");
    }

    @Test
    void testOptionsUseFreePortsATemporaryDirectoryAndTheirOwnDatabases() {
        StackOptions options = StackOptions.forTests();
        try {
            assertThat(options.ports().values()).containsOnly(0);
            assertThat(options.dataDir()).exists().isNotEqualTo(options.home().resolve(".local"));
            assertThat(options.databasePrefix()).matches("stack_[0-9a-f]{10}_");
            assertThat(options.dropDatabasesOnClose()).isTrue();
            assertThat(options.deleteDataDirOnClose()).isTrue();
        } finally {
            options.dataDir().toFile().delete();
        }
    }
}
