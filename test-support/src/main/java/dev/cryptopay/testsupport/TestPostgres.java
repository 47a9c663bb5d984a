package dev.cryptopay.testsupport;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * Finds one real PostgreSQL server per JVM and hands out fresh databases on it.
 *
 * <p>Order of preference (environment variable {@code TEST_POSTGRES} = {@code auto} (default), {@code local},
 * {@code docker} or {@code embedded} forces one):
 * <ol>
 *   <li>the local server at {@code TEST_PG_HOST:TEST_PG_PORT} (default 127.0.0.1:5432, user {@code TEST_PG_USER}
 *       = postgres, password {@code TEST_PG_PASSWORD} = empty);</li>
 *   <li>a Testcontainers PostgreSQL when a Docker engine answers;</li>
 *   <li>an embedded PostgreSQL (io.zonky.test) downloaded from Maven Central, so a machine with only a JDK passes.</li>
 * </ol>
 * When none starts, tests fail with a message naming every attempt, never skip.
 */
public final class TestPostgres {

    private static final String CONTAINER_IMAGE = "postgres:17-alpine";
    private static final Map<String, TestDatabase> SHARED = new java.util.HashMap<>();
    private static PostgresServer server;

    private TestPostgres() {}

    /** The shared server of this JVM, started on first use. */
    public static synchronized PostgresServer server() {
        if (server == null) {
            server = locate(System.getenv());
            System.out.println("[test-support] PostgreSQL for tests: " + server.origin() + " at " + server.host() + ":"
                    + server.port());
        }
        return server;
    }

    /** Creates a new, empty database with a unique name on the shared server. */
    public static TestDatabase newDatabase() {
        return TestDatabase.create(server());
    }

    /**
     * One database per name for the whole JVM, dropped when the JVM exits. Lets several test classes share one
     * Spring context (and its start-up time); such tests isolate themselves by using fresh merchant ids.
     */
    public static synchronized TestDatabase sharedDatabase(String name) {
        return SHARED.computeIfAbsent(name, ignored -> {
            TestDatabase database = newDatabase();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    database.close();
                } catch (RuntimeException ignoredAtExit) {
                    // the server may already be gone
                }
            }));
            return database;
        });
    }

    /** Starts a separate embedded server; used to prove the fallback works on this machine. */
    public static PostgresServer startEmbedded() {
        try {
            EmbeddedPostgresServer embedded = EmbeddedPostgresServer.startThrowaway();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(embedded)));
            return embedded.server("embedded PostgreSQL (io.zonky.test)");
        } catch (Exception | LinkageError e) {
            throw new IllegalStateException("embedded PostgreSQL did not start: " + e, e);
        }
    }

    /** Finds a server as the given environment says; package-private so the failure message can be tested. */
    static PostgresServer locate(Map<String, String> environment) {
        String choice = env(environment, "TEST_POSTGRES", "auto").toLowerCase(Locale.ROOT);
        List<String> attempts = new ArrayList<>();
        if (choice.equals("auto") || choice.equals("local")) {
            PostgresServer local = new PostgresServer(
                    "local server",
                    env(environment, "TEST_PG_HOST", "127.0.0.1"),
                    Integer.parseInt(env(environment, "TEST_PG_PORT", "5432")),
                    env(environment, "TEST_PG_USER", "postgres"),
                    env(environment, "TEST_PG_PASSWORD", ""));
            String failure = probe(local);
            if (failure == null) {
                return local;
            }
            attempts.add("local server " + local.host() + ":" + local.port() + ": " + failure);
        }
        if (choice.equals("auto") || choice.equals("docker")) {
            try {
                if (DockerClientFactory.instance().isDockerAvailable()) {
                    return startContainer();
                }
                attempts.add("Testcontainers: no Docker engine answers");
            } catch (RuntimeException e) {
                attempts.add("Testcontainers: " + e.getMessage());
            }
        }
        if (choice.equals("auto") || choice.equals("embedded")) {
            try {
                return startEmbedded();
            } catch (IllegalStateException e) {
                attempts.add(e.getMessage());
            }
        }
        throw new IllegalStateException("No PostgreSQL for tests (TEST_POSTGRES=" + choice + "). Tried: "
                + String.join("; ", attempts) + ". Start the local server (pg_ctlcluster --skip-systemctl-redirect "
                + "<version> main start), set TEST_PG_HOST/TEST_PG_PORT/TEST_PG_USER/TEST_PG_PASSWORD, or start a "
                + "Docker engine.");
    }

    private static PostgresServer startContainer() {
        PostgreSQLContainer container = new PostgreSQLContainer(CONTAINER_IMAGE);
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
        return new PostgresServer(
                "Testcontainers " + CONTAINER_IMAGE,
                container.getHost(),
                container.getMappedPort(5432),
                container.getUsername(),
                container.getPassword());
    }

    /** Returns null when the server accepts a connection, otherwise why not. */
    private static String probe(PostgresServer candidate) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(candidate.host(), candidate.port()), 1000);
        } catch (Exception e) {
            return "nothing listens (" + e.getMessage() + ")";
        }
        try (Connection ignored =
                DriverManager.getConnection(candidate.jdbcUrl("postgres"), candidate.user(), candidate.password())) {
            return null;
        } catch (SQLException e) {
            return "connection refused by the server (" + e.getMessage() + ")";
        }
    }

    private static String env(Map<String, String> environment, String name, String fallback) {
        String value = environment.get(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // shutting down anyway
        }
    }
}
