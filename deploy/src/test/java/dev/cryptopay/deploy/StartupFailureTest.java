package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every start-up failure ends in one readable paragraph (no stack trace) and leaves nothing running. */
class StartupFailureTest {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    private StackOptions options() {
        StackOptions options = StackOptions.forTests();
        options.out = new PrintStream(printed);
        return options;
    }

    @AfterEach
    void nothingLeftRunning() {
        List<String> left = ProcessHandle.current()
                .descendants()
                .filter(ProcessHandle::isAlive)
                .map(p -> p.info().commandLine().orElse("?"))
                .filter(c -> c.contains("/jars/"))
                .toList();
        assertThat(left).as("service processes left after a failed start").isEmpty();
    }

    @Test
    void aTakenPortNamesThePortItsHolderAndTheVariableThatMovesIt() throws IOException {
        try (ServerSocket blocker = new ServerSocket()) {
            blocker.bind(new InetSocketAddress(0));
            int port = blocker.getLocalPort();
            StackOptions options = options();
            options.ports.put(StackPort.GATEWAY, port);

            StackStartException failure =
                    catchThrowableOfType(StackStartException.class, () -> LocalStack.start(options));

            assertThat(failure.getMessage())
                    .startsWith("A port the stack needs is already in use: port " + port
                            + " (gateway, STACK_GATEWAY_PORT). ")
                    .contains("kill <pid>")
                    .doesNotContain("Exception");
            assertThat(options.dataDir).as("temporary data directory removed").doesNotExist();
        }
    }

    @Test
    void aMissingJarSaysHowToBuildIt(@TempDir Path emptyCheckout) {
        StackOptions options = options();
        options.home = emptyCheckout;

        StackStartException failure = catchThrowableOfType(StackStartException.class, () -> LocalStack.start(options));

        assertThat(failure.getMessage())
                .contains("gateway/target/gateway-0.1.0-SNAPSHOT.jar")
                .contains("webhook-service/target/webhook-service-0.1.0-SNAPSHOT.jar")
                .contains("run ./mvnw -DskipTests install");
    }

    @Test
    void aDatabaseThatRefusesTheLoginSaysWhichSettingsToChange() throws Exception {
        try (ServerSocket notPostgres = new ServerSocket()) {
            notPostgres.bind(new InetSocketAddress("127.0.0.1", 0));
            Thread hangUp = new Thread(() -> {
                while (!notPostgres.isClosed()) {
                    try (Socket ignored = notPostgres.accept()) {
                        // accept and close at once: the TCP probe succeeds, the PostgreSQL login fails
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            hangUp.setDaemon(true);
            hangUp.start();
            StackOptions options = options();
            options.postgresMode = StackOptions.PostgresMode.LOCAL;
            options.pgHost = "127.0.0.1";
            options.pgPort = notPostgres.getLocalPort();

            StackStartException failure =
                    catchThrowableOfType(StackStartException.class, () -> LocalStack.start(options));

            assertThat(failure.getMessage())
                    .startsWith("PostgreSQL at 127.0.0.1:" + notPostgres.getLocalPort()
                            + " accepts TCP connections but refused the login of user 'postgres'")
                    .contains("STACK_PG_USER")
                    .contains("STACK_POSTGRES=embedded");
        }
    }

    @Test
    void aServiceNotReadyInTimePointsAtItsLogAndShowsItsLastLines() {
        StackOptions options = options();
        options.readyTimeout = Duration.ofSeconds(2);

        StackStartException failure = catchThrowableOfType(StackStartException.class, () -> LocalStack.start(options));

        assertThat(failure.getMessage())
                .containsPattern(
                        "^(gateway|payment-links-service|subscriptions-service|webhook-service|notification-service) was not "
                                + "ready within 2 s \\(last answer of http://127\\.0\\.0\\.1:\\d+/actuator/health/readiness: ")
                .containsPattern("Its log is \\S+/logs/[a-z-]+\\.log; its last \\d+ lines:\n    ")
                .contains("STACK_READY_TIMEOUT");
    }

    @Test
    void aServiceThatExitsWhileStartingShowsItsExitCodeAndLog() {
        StackOptions options = options().serviceEnv("webhook-service", "WEBHOOK_SECRET_ENCRYPTION_KEY", "too-short");

        StackStartException failure = catchThrowableOfType(StackStartException.class, () -> LocalStack.start(options));

        assertThat(failure.getMessage())
                .startsWith("webhook-service stopped with exit code 1 while starting. Its log is ")
                .contains("webhook-service.log; its last 20 lines:");
    }
}
