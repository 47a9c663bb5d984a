package dev.cryptopay.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kept-data server the local stack launcher runs: data survives a restart, a server left running is found. */
class EmbeddedPostgresServerTest {

    @Test
    void dataInAKeptDirectorySurvivesARestartOnTheSamePort(@TempDir Path temp) throws Exception {
        Path dataDir = temp.resolve("postgres");
        Path logFile = temp.resolve("logs/postgres.log");
        int port = freePort();

        try (EmbeddedPostgresServer first = EmbeddedPostgresServer.start(dataDir, port, logFile)) {
            assertThat(first.port()).isEqualTo(port);
            execute(first.server("first"), "CREATE TABLE kept (id int); INSERT INTO kept VALUES (42)");
        }
        assertThat(EmbeddedPostgresServer.leftRunningIn(dataDir))
                .as("after close()")
                .isEmpty();

        try (EmbeddedPostgresServer second = EmbeddedPostgresServer.start(dataDir, port, logFile)) {
            PostgresServer server = second.server("second");
            assertThat(server.host()).isEqualTo("127.0.0.1");
            assertThat(server.user()).isEqualTo("postgres");
            try (Connection connection =
                            DriverManager.getConnection(server.jdbcUrl("postgres"), server.user(), server.password());
                    Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT id FROM kept")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).isEqualTo(42);
            }
        }
        assertThat(logFile).isNotEmptyFile();
    }

    @Test
    void aServerWhoseOwnerNeverStoppedItIsFoundAndStopped(@TempDir Path temp) throws Exception {
        Path dataDir = temp.resolve("postgres");
        EmbeddedPostgresServer abandoned =
                EmbeddedPostgresServer.start(dataDir, freePort(), temp.resolve("postgres.log"));
        try {
            Optional<ProcessHandle> postmaster = EmbeddedPostgresServer.leftRunningIn(dataDir);
            assertThat(postmaster).as("postmaster of a running server").isPresent();

            EmbeddedPostgresServer.stop(postmaster.get());

            assertThat(postmaster.get().isAlive()).isFalse();
            assertThat(EmbeddedPostgresServer.leftRunningIn(dataDir)).isEmpty();
        } finally {
            try {
                abandoned.close();
            } catch (Exception alreadyStopped) {
                // pg_ctl complains about a server that is gone: that is the point of this test
            }
        }
    }

    @Test
    void nothingIsLeftRunningInADirectoryWithoutAServer(@TempDir Path temp) {
        assertThat(EmbeddedPostgresServer.leftRunningIn(temp)).isEmpty();
    }

    private static void execute(PostgresServer server, String sql) throws Exception {
        try (Connection connection =
                        DriverManager.getConnection(server.jdbcUrl("postgres"), server.user(), server.password());
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
