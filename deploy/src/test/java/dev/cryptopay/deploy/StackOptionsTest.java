package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackOptionsTest {

    @Test
    void defaultsAreTheDocumentedPortsUncappedJvmFlagsClassDataSharingAndFastWebhookRetries() {
        StackOptions options = new StackOptions();

        assertThat(options.ports)
                .containsEntry(StackPort.GATEWAY, 8080)
                .containsEntry(StackPort.ADMIN, 8090)
                .containsEntry(StackPort.PAYMENT_LINKS, 8081)
                .containsEntry(StackPort.SUBSCRIPTIONS, 8082)
                .containsEntry(StackPort.WEBHOOKS, 8083)
                .containsEntry(StackPort.CHAIN_WATCHER, 8084)
                .containsEntry(StackPort.NOTIFICATIONS, 8085)
                .containsEntry(StackPort.SMTP, 3025)
                .containsEntry(StackPort.KAFKA, 9092)
                .containsEntry(StackPort.EMBEDDED_POSTGRES, 54329)
                .containsEntry(StackPort.DEV_CHAIN, 8545);
        assertThat(options.devChain)
                .as("the dev chain runs when the tools are there")
                .isTrue();
        assertThat(options.jvmOptions)
                .as("the JIT is not capped")
                .containsExactly("-XX:+UseSerialGC", "-Xms128m", "-Xmx256m");
        assertThat(options.classDataSharing).isTrue();
        assertThat(options.fastWebhookRetries).isTrue();
        assertThat(options.instances).isEqualTo(1);
        assertThat(List.of(options.postgresMode, options.pgHost, options.pgPort, options.pgUser, options.pgPassword))
                .containsExactly(StackOptions.PostgresMode.AUTO, "127.0.0.1", 5432, "postgres", "");
        assertThat(options.dataDir).isEqualTo(options.home.resolve(".local"));
        assertThat(options.home.resolve("deploy/pom.xml")).exists();
    }

    @Test
    void environmentVariablesOverrideTheDefaults() {
        StackOptions options = new StackOptions()
                .applyEnvironment(Map.ofEntries(
                        Map.entry("STACK_DATA_DIR", "/tmp/elsewhere"),
                        Map.entry("STACK_POSTGRES", "embedded"),
                        Map.entry("STACK_PG_HOST", "db.local"),
                        Map.entry("STACK_PG_PORT", "6543"),
                        Map.entry("STACK_PG_USER", "me"),
                        Map.entry("STACK_PG_PASSWORD", "secret"),
                        Map.entry("STACK_GATEWAY_PORT", "18080"),
                        Map.entry("STACK_KAFKA_PORT", "0"),
                        Map.entry("STACK_CHAIN_PORT", "18545"),
                        Map.entry("STACK_CHAIN_WATCHER_PORT", "18084"),
                        Map.entry("STACK_CHAIN", "off"),
                        Map.entry("STACK_JVM_OPTS", " -Xmx512m  -XX:+UseG1GC "),
                        Map.entry("STACK_FAST_WEBHOOK_RETRIES", "false"),
                        Map.entry("STACK_CLASS_DATA_SHARING", "false"),
                        Map.entry("STACK_READY_TIMEOUT", "30"),
                        Map.entry("STACK_INSTANCES", "2"),
                        Map.entry("STACK_SKIP", "gateway, webhook-service")));

        assertThat(options.dataDir).isEqualTo(Path.of("/tmp/elsewhere"));
        assertThat(List.of(options.postgresMode, options.pgHost, options.pgPort, options.pgUser, options.pgPassword))
                .containsExactly(StackOptions.PostgresMode.EMBEDDED, "db.local", 6543, "me", "secret");
        assertThat(options.ports.get(StackPort.GATEWAY)).isEqualTo(18080);
        assertThat(options.ports.get(StackPort.KAFKA)).isZero();
        assertThat(options.ports.get(StackPort.DEV_CHAIN)).isEqualTo(18545);
        assertThat(options.ports.get(StackPort.CHAIN_WATCHER)).isEqualTo(18084);
        assertThat(options.devChain).isFalse();
        assertThat(new StackOptions().applyEnvironment(Map.of("STACK_CHAIN", "AUTO")).devChain)
                .isTrue();
        assertThat(options.jvmOptions).containsExactly("-Xmx512m", "-XX:+UseG1GC");
        assertThat(options.fastWebhookRetries).isFalse();
        assertThat(options.classDataSharing).isFalse();
        assertThat(options.readyTimeout).isEqualTo(Duration.ofSeconds(30));
        assertThat(options.instances).isEqualTo(2);
        assertThat(options.skipped.contains(StackService.GATEWAY)).isTrue();
        assertThat(options.skipped.contains(StackService.WEBHOOKS)).isTrue();
        assertThat(options.skipped.contains(StackService.PAYMENT_LINKS)).isFalse();
    }

    @Test
    void badValuesNameTheVariable() {
        assertThatThrownBy(() -> new StackOptions().applyEnvironment(Map.of("STACK_GATEWAY_PORT", "80800")))
                .hasMessage("STACK_GATEWAY_PORT must be a number from 0 to 65535, not '80800'");
        assertThatThrownBy(() -> new StackOptions().applyEnvironment(Map.of("STACK_POSTGRES", "docker")))
                .hasMessage("STACK_POSTGRES must be auto, local or embedded, not 'docker'");
        assertThatThrownBy(() -> new StackOptions().applyEnvironment(Map.of("STACK_FAST_WEBHOOK_RETRIES", "yes")))
                .hasMessage("STACK_FAST_WEBHOOK_RETRIES must be true or false, not 'yes'");
        assertThatThrownBy(() -> new StackOptions().applyEnvironment(Map.of("STACK_CLASS_DATA_SHARING", "on")))
                .hasMessage("STACK_CLASS_DATA_SHARING must be true or false, not 'on'");
        assertThatThrownBy(() -> new StackOptions().applyEnvironment(Map.of("STACK_SKIP", "payments")))
                .hasMessageStartingWith(
                        "STACK_SKIP: no service 'payments'; the stack runs gateway, "
                                + "payment-links-service, subscriptions-service, webhook-service, notification-service, chain-watcher");
        assertThatThrownBy(() -> new StackOptions().applyEnvironment(Map.of("STACK_CHAIN", "no")))
                .hasMessage("STACK_CHAIN must be auto or off, not 'no'");
        assertThatThrownBy(() -> new StackOptions().applyEnvironment(Map.of("STACK_INSTANCES", "5")))
                .hasMessage("STACK_INSTANCES must be a number from 1 to 4, not '5'");
        assertThatThrownBy(() -> new StackOptions().instances(0)).hasMessage("instances must be from 1 to 4, not 0");
        assertThatThrownBy(() -> new StackOptions().applyEnvironment(Map.of("STACK_CHAIN_PORT", "-1")))
                .hasMessage("STACK_CHAIN_PORT must be a number from 0 to 65535, not '-1'");
    }

    @Test
    void testOptionsUseFreePortsATemporaryDirectoryAndTheirOwnDatabases() {
        StackOptions options = StackOptions.forTests();
        try {
            assertThat(options.ports.values()).containsOnly(0);
            assertThat(options.dataDir).exists().isNotEqualTo(options.home.resolve(".local"));
            assertThat(options.dropDatabasesOnClose).isTrue();
            assertThat(options.deleteDataDirOnClose).isTrue();
            assertThat(options.devChain)
                    .as("a test that pays on chain asks for it")
                    .isFalse();
            assertThat(options.jvmOptions).isEqualTo(StackOptions.QUICK_START_JVM_OPTIONS);
            assertThat(options.classDataSharing).isFalse();
        } finally {
            options.dataDir.toFile().delete();
        }
    }

    @Test
    void aDataDirectoryOwnsItsDatabasesWhateverItsSpellingAndWhetherItExists(@TempDir Path temp) throws Exception {
        Path checkout = Files.createDirectory(temp.resolve("checkout"));
        Path link = Files.createSymbolicLink(temp.resolve("link"), checkout);
        Path perf = checkout.resolve(".local-perf");

        List<String> names = databaseNames(perf);
        assertThat(names).doesNotContainAnyElementsOf(databaseNames(checkout.resolve(".local")));
        assertThat(databaseNames(link.resolve(".local-perf")))
                .as("through a symlink")
                .isEqualTo(names);
        assertThat(databaseNames(checkout.resolve("x/../.local-perf"))).isEqualTo(names);
        Files.createDirectory(perf);
        assertThat(databaseNames(perf)).as("once made").isEqualTo(names);

        String hash = HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256")
                        .digest(perf.toRealPath().toString().getBytes(StandardCharsets.UTF_8)))
                .substring(0, 8);
        assertThat(names)
                .as("README: the first 8 hex digits of the SHA-256 of the real path")
                .containsExactly(
                        "gateway_" + hash,
                        "payment_links_" + hash,
                        "subscriptions_" + hash,
                        "webhooks_" + hash,
                        "notifications_" + hash,
                        "chain_watcher_" + hash)
                .allSatisfy(name -> assertThat(name.getBytes(StandardCharsets.UTF_8).length)
                        .as("PostgreSQL's identifier limit")
                        .isLessThanOrEqualTo(63));
    }

    private static List<String> databaseNames(Path dataDir) {
        StackOptions options = new StackOptions();
        options.dataDir = dataDir;
        return Arrays.stream(StackService.values()).map(options::databaseName).toList();
    }
}
