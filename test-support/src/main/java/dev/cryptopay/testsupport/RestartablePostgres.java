package dev.cryptopay.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A real PostgreSQL server of a test's own, on a fixed port and data directory, so the test can restart it the way an
 * operator restarts a database: every connection breaks, the data stays, the address stays. The shared test server
 * ({@link TestPostgres}) must never be restarted under other tests; this one can.
 */
public final class RestartablePostgres implements AutoCloseable {

    private final Path data;
    private final int port;
    private EmbeddedPostgresServer server;

    private RestartablePostgres(Path data, int port) {
        this.data = data;
        this.port = port;
        this.server = start(data, port);
    }

    /** A new server in a temporary directory, on a free port. */
    public static RestartablePostgres start() {
        try {
            return new RestartablePostgres(
                    Files.createTempDirectory("restartable-pg").resolve("data"), freePort());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The server's address and credentials, described as {@code origin} in messages. */
    public PostgresServer server(String origin) {
        return server.server(origin);
    }

    public void createDatabase(String name) {
        PostgresServer address = server("restartable");
        try (var connection =
                        DriverManager.getConnection(address.jdbcUrl("postgres"), address.user(), address.password());
                var statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name, e);
        }
    }

    /**
     * Creates {@code database} and points a Spring test context's R2DBC and Flyway settings at it, for a service
     * test whose database this server is.
     */
    public void registerSpringProperties(DynamicPropertyRegistry registry, String database) {
        createDatabase(database);
        PostgresServer address = server(database + " (restartable)");
        registry.add("spring.r2dbc.url", () -> address.r2dbcUrl(database));
        registry.add("spring.r2dbc.username", address::user);
        registry.add("spring.r2dbc.password", address::password);
        registry.add("spring.flyway.url", () -> address.jdbcUrl(database));
        registry.add("spring.flyway.user", address::user);
        registry.add("spring.flyway.password", address::password);
    }

    /** Stops the server (every open connection breaks) and starts it again on the same port and data. */
    public synchronized void restart() {
        stop();
        startAgain();
    }

    /** Stops the server: every open connection breaks and new ones are refused until {@link #startAgain()}. */
    public synchronized void stop() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts the stopped server again on the same port and data. */
    public synchronized void startAgain() {
        server = start(data, port);
    }

    @Override
    public synchronized void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static EmbeddedPostgresServer start(Path data, int port) {
        try {
            return EmbeddedPostgresServer.start(data, port, data.resolveSibling("postgres.log"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
