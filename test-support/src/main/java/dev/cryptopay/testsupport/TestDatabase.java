package dev.cryptopay.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/** One freshly created database; {@link #close()} drops it, ending any connections still open to it. */
public final class TestDatabase implements AutoCloseable {

    private final PostgresServer server;
    private final String name;

    private TestDatabase(PostgresServer server, String name) {
        this.server = server;
        this.name = name;
    }

    static TestDatabase create(PostgresServer server) {
        String name = "test_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toLowerCase(Locale.ROOT);
        execute(server, "CREATE DATABASE " + name);
        return new TestDatabase(server, name);
    }

    public String name() {
        return name;
    }

    public PostgresServer server() {
        return server;
    }

    public String jdbcUrl() {
        return server.jdbcUrl(name);
    }

    public String r2dbcUrl() {
        return server.r2dbcUrl(name);
    }

    public String user() {
        return server.user();
    }

    public String password() {
        return server.password();
    }

    @Override
    public void close() {
        execute(server, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    private static void execute(PostgresServer server, String sql) {
        try (Connection connection =
                        DriverManager.getConnection(server.jdbcUrl("postgres"), server.user(), server.password());
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("'" + sql + "' failed on " + server.origin() + ": " + e.getMessage(), e);
        }
    }
}
