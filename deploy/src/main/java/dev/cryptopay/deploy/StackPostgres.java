package dev.cryptopay.deploy;

import dev.cryptopay.testsupport.EmbeddedPostgresServer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The stack's PostgreSQL: a server that already runs ({@code STACK_PG_HOST:STACK_PG_PORT}) or an embedded real
 * PostgreSQL (test-support's {@link EmbeddedPostgresServer}) whose data directory is kept between runs.
 */
final class StackPostgres implements AutoCloseable {

    private final String origin;
    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final EmbeddedPostgresServer embedded;

    private StackPostgres(
            String origin, String host, int port, String user, String password, EmbeddedPostgresServer embedded) {
        this.origin = origin;
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.embedded = embedded;
    }

    /** Uses the server at host:port; the caller has seen it accept TCP connections. */
    static StackPostgres external(StackOptions options) {
        StackPostgres server = new StackPostgres(
                "PostgreSQL at " + options.pgHost() + ":" + options.pgPort(),
                options.pgHost(),
                options.pgPort(),
                options.pgUser(),
                options.pgPassword(),
                null);
        try (Connection ignored = server.connect("postgres")) {
            return server;
        } catch (SQLException e) {
            throw new StackStartException(
                    "PostgreSQL at " + options.pgHost() + ":" + options.pgPort()
                            + " accepts TCP connections but refused the login of user '" + options.pgUser() + "': "
                            + firstLine(e.getMessage())
                            + ". Set STACK_PG_USER and STACK_PG_PASSWORD to an account that may "
                            + "create databases, point STACK_PG_HOST/STACK_PG_PORT at another server, or set "
                            + "STACK_POSTGRES=embedded to let the stack run its own PostgreSQL (data in .local/postgres).",
                    e);
        }
    }

    /**
     * Starts an embedded PostgreSQL on the port with its data in {@code dataDir} (initialised on first use, kept
     * afterwards). A server left running by a launcher that was killed is stopped first.
     */
    static StackPostgres embedded(Path dataDir, int port, Path logFile, PrintStream out) {
        stopOrphan(dataDir, out);
        try {
            EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start(dataDir, port, logFile);
            return new StackPostgres(
                    "embedded PostgreSQL (data in " + LocalStack.display(dataDir) + ")",
                    "127.0.0.1",
                    port,
                    "postgres",
                    "postgres",
                    postgres);
        } catch (IOException | RuntimeException | LinkageError e) {
            throw new StackStartException(
                    "The embedded PostgreSQL did not start on port " + port + " with its data in "
                            + LocalStack.display(dataDir) + ": " + rootMessage(e) + ". Its log is "
                            + LocalStack.display(logFile)
                            + LocalStack.tail(logFile, 20)
                            + "If the data directory is damaged (an interrupted first start), "
                            + "delete it (everything stored there is lost) and run again; to use a PostgreSQL of your own "
                            + "instead, start it on 127.0.0.1:5432 or set STACK_PG_HOST/STACK_PG_PORT.",
                    e);
        }
    }

    /**
     * If {@code postmaster.pid} names a live postgres process, an earlier launcher was killed before it could stop
     * its embedded server: stop that server (SIGTERM, a smart shutdown) so this start can use the directory.
     */
    static void stopOrphan(Path dataDir, PrintStream out) {
        EmbeddedPostgresServer.leftRunningIn(dataDir).ifPresent(postmaster -> {
            out.println("[stack] stopping the embedded PostgreSQL an earlier launcher left running (pid "
                    + postmaster.pid() + ")");
            EmbeddedPostgresServer.stop(postmaster);
        });
    }

    String origin() {
        return origin;
    }

    String host() {
        return host;
    }

    int port() {
        return port;
    }

    String user() {
        return user;
    }

    String password() {
        return password;
    }

    boolean isEmbedded() {
        return embedded != null;
    }

    String jdbcUrl(String database) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    String r2dbcUrl(String database) {
        return "r2dbc:postgresql://" + host + ":" + port + "/" + database;
    }

    /** Creates the database unless it exists. */
    void ensureDatabase(String name) {
        try (Connection connection = connect("postgres")) {
            try (PreparedStatement exists =
                    connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
                exists.setString(1, name);
                try (ResultSet rows = exists.executeQuery()) {
                    if (rows.next()) {
                        return;
                    }
                }
            }
            try (Statement create = connection.createStatement()) {
                create.execute("CREATE DATABASE \"" + name + "\"");
            } catch (SQLException e) {
                if (!"42P04".equals(e.getSQLState())) { // created meanwhile by someone else: fine
                    throw e;
                }
            }
        } catch (SQLException e) {
            throw new StackStartException(
                    "Could not create the database '" + name + "' on " + origin + " as user '"
                            + user + "': " + firstLine(e.getMessage())
                            + ". Give that user the CREATEDB privilege (or create "
                            + "the database yourself), or set STACK_PG_USER/STACK_PG_PASSWORD to another account.",
                    e);
        }
    }

    /** Drops the database and ends its sessions; does nothing when it does not exist. */
    void dropDatabase(String name) {
        try (Connection connection = connect("postgres");
                Statement drop = connection.createStatement()) {
            drop.execute("DROP DATABASE IF EXISTS \"" + name + "\" WITH (FORCE)");
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "could not drop database " + name + " on " + origin + ": " + e.getMessage(), e);
        }
    }

    Connection connect(String database) throws SQLException {
        java.util.Properties properties = new java.util.Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        properties.setProperty("connectTimeout", "5");
        return DriverManager.getConnection(jdbcUrl(database), properties);
    }

    @Override
    public void close() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                System.err.println("[stack] could not stop the embedded PostgreSQL: " + e.getMessage());
            }
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no reason given";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    static String rootMessage(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String message = cause.getMessage();
        return message == null ? cause.getClass().getSimpleName() : firstLine(message);
    }
}
