package dev.cryptopay.deploy;

import dev.cryptopay.testsupport.EmbeddedPostgresServer;
import dev.cryptopay.testsupport.PostgresServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * The stack's PostgreSQL: a server that already runs ({@code STACK_PG_HOST:STACK_PG_PORT}) or test-support's
 * {@link EmbeddedPostgresServer} with its data kept in {@code <data dir>/postgres}; and the stack's databases on it.
 */
final class StackPostgres implements AutoCloseable {

    final String origin;
    final PostgresServer server;
    /** Null for an external server. */
    private volatile EmbeddedPostgresServer embedded;

    private StackPostgres(String origin, PostgresServer server, EmbeddedPostgresServer embedded) {
        this.origin = origin;
        this.server = server;
        this.embedded = embedded;
    }

    /**
     * The stack's PostgreSQL, embedded (on the port {@code ports} plans for it) or external, and every database on it
     * (chain-watcher's too, so --reset always finds the same set), each commented with its data directory, which its
     * name's suffix only hashes.
     */
    static StackPostgres start(
            boolean embedded, StackOptions options, StackFiles files, Ports ports, StackConsole console) {
        StackPostgres postgres;
        if (embedded) {
            postgres = embedded(files, ports.port(StackPort.EMBEDDED_POSTGRES), console);
        } else {
            postgres = external(options);
            console.say("PostgreSQL: the server at " + options.pgHost + ":" + options.pgPort + " (user "
                    + options.pgUser + ")");
        }
        for (StackService service : StackService.values()) {
            postgres.ensureDatabase(options.databaseName(service), "local stack data directory " + files.realRoot());
        }
        return postgres;
    }

    /**
     * Restarts the embedded server as an operator restarts a database (a fast shutdown: every connection breaks;
     * then a start on the same port and data); returns the seconds it was down. Not for an external server.
     */
    double restart(StackFiles files) throws IOException {
        EmbeddedPostgresServer running = embedded;
        if (running == null) {
            throw new IllegalStateException("the stack runs on " + origin + ", which is not its own to restart");
        }
        long begin = System.nanoTime();
        int port = running.port();
        running.close();
        embedded = EmbeddedPostgresServer.start(files.postgresDir, port, files.logDir.resolve("postgres.log"));
        return (System.nanoTime() - begin) / 1e9;
    }

    boolean isEmbedded() {
        return embedded != null;
    }

    /** Whether the stack runs its own PostgreSQL ({@code STACK_POSTGRES=embedded}, or auto and nothing answers). */
    static boolean mustEmbed(StackOptions options) {
        if (options.postgresMode == StackOptions.PostgresMode.EMBEDDED) {
            return true;
        }
        boolean answers = true;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(options.pgHost, options.pgPort), 1000);
        } catch (IOException e) {
            answers = false;
        }
        if (options.postgresMode == StackOptions.PostgresMode.LOCAL && !answers) {
            throw new StackStartException("No PostgreSQL answers at " + options.pgHost + ":" + options.pgPort
                    + " (STACK_POSTGRES=local). Start it, point STACK_PG_HOST/STACK_PG_PORT at a running server, or "
                    + "drop STACK_POSTGRES to let the stack start an embedded one.");
        }
        return !answers;
    }

    static StackPostgres external(StackOptions options) {
        String origin = "PostgreSQL at " + options.pgHost + ":" + options.pgPort;
        PostgresServer server =
                new PostgresServer(origin, options.pgHost, options.pgPort, options.pgUser, options.pgPassword);
        StackPostgres external = new StackPostgres(origin, server, null);
        try (Connection ignored = external.connect()) {
            return external;
        } catch (SQLException e) {
            throw new StackStartException(
                    origin + " accepts TCP connections but refused the login of user '" + options.pgUser + "': "
                            + StackStartException.firstLine(e.getMessage()) + ". Set STACK_PG_USER and "
                            + "STACK_PG_PASSWORD to an account that may create databases, point STACK_PG_HOST/"
                            + "STACK_PG_PORT at another server, or set STACK_POSTGRES=embedded to let the stack run "
                            + "its own PostgreSQL (data in .local/postgres).",
                    e);
        }
    }

    /** The embedded server on the port, its data in {@code <data dir>/postgres} (made on first use, kept after). */
    static StackPostgres embedded(StackFiles files, int port, StackConsole console) {
        long begin = System.nanoTime();
        Path dataDir = files.postgresDir;
        Path logFile = files.logDir.resolve("postgres.log");
        boolean firstStart = !Files.exists(dataDir.resolve("postgresql.conf"));
        StackPostgres postgres;
        try {
            EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dataDir, port, logFile);
            String origin = "embedded PostgreSQL (data in " + StackConsole.path(dataDir) + ")";
            postgres = new StackPostgres(origin, server.server(origin), server);
        } catch (IOException | RuntimeException | LinkageError e) {
            throw new StackStartException(
                    "The embedded PostgreSQL did not start on port " + port + " with its data in "
                            + StackConsole.path(dataDir) + ": " + StackStartException.rootCause(e) + ". Its log is "
                            + StackConsole.path(logFile) + StackConsole.logTail(logFile, 20)
                            + "If the data directory is damaged "
                            + "(an interrupted first start), delete it (everything stored there is lost) and run "
                            + "again; to use a PostgreSQL of your own instead, start it on 127.0.0.1:5432 or set "
                            + "STACK_PG_HOST/STACK_PG_PORT.",
                    e);
        }
        console.say(String.format(
                "PostgreSQL: embedded, ready at 127.0.0.1:%d in %.1f s%s (data in %s)",
                port,
                (System.nanoTime() - begin) / 1e9,
                firstStart ? ", first start" : "",
                StackConsole.path(dataDir)));
        return postgres;
    }

    /** Stops the server a killed launcher left running on the directory (a smart shutdown), so this start can use it. */
    static void stopLeftRunning(Path dataDir, StackConsole console) {
        EmbeddedPostgresServer.leftRunningIn(dataDir).ifPresent(postmaster -> {
            console.say(
                    "stopping the embedded PostgreSQL an earlier launcher left running (pid " + postmaster.pid() + ")");
            EmbeddedPostgresServer.stop(postmaster);
        });
    }

    /** Creates the database unless it exists, with a comment saying whose it is (psql's {@code \l+} shows it). */
    void ensureDatabase(String name, String comment) {
        try (Connection connection = connect();
                PreparedStatement exists = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?");
                Statement create = connection.createStatement()) {
            exists.setString(1, name);
            if (exists.executeQuery().next()) { // the result set is closed with its statement
                return;
            }
            try {
                create.execute("CREATE DATABASE \"" + name + "\"");
                create.execute("COMMENT ON DATABASE \"" + name + "\" IS '" + comment.replace("'", "''") + "'");
            } catch (SQLException e) {
                if (!"42P04".equals(e.getSQLState())) { // created meanwhile by someone else: fine
                    throw e;
                }
            }
        } catch (SQLException e) {
            throw new StackStartException(
                    "Could not create the database '" + name + "' on " + origin + " as user '" + server.user() + "': "
                            + StackStartException.firstLine(e.getMessage()) + ". Give that user the CREATEDB "
                            + "privilege (or create the database yourself), or set STACK_PG_USER/STACK_PG_PASSWORD to "
                            + "another account.",
                    e);
        }
    }

    void dropDatabase(String name) {
        try (Connection connection = connect();
                Statement drop = connection.createStatement()) {
            drop.execute("DROP DATABASE IF EXISTS \"" + name + "\" WITH (FORCE)");
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "could not drop database " + name + " on " + origin + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        EmbeddedPostgresServer running = embedded;
        if (running != null) {
            running.close();
        }
    }

    private Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", server.user());
        properties.setProperty("password", server.password());
        properties.setProperty("connectTimeout", "5");
        return DriverManager.getConnection(server.jdbcUrl("postgres"), properties);
    }
}
