package dev.cryptopay.deploy.infrastructure;

import dev.cryptopay.deploy.StackOptions;
import dev.cryptopay.deploy.StackStartException;
import dev.cryptopay.deploy.console.DisplayPath;
import dev.cryptopay.deploy.console.LogTail;
import dev.cryptopay.deploy.console.StackConsole;
import dev.cryptopay.deploy.datadir.StackLayout;
import dev.cryptopay.deploy.ports.LocalPorts;
import dev.cryptopay.testsupport.EmbeddedPostgresServer;
import dev.cryptopay.testsupport.PostgresServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * The stack's PostgreSQL: a server that already runs ({@code STACK_PG_HOST:STACK_PG_PORT}) or test-support's
 * {@link EmbeddedPostgresServer} with its data kept in {@code <data dir>/postgres}; and the stack's databases on it.
 */
public final class StackPostgres implements AutoCloseable {

    private final String origin;
    private final PostgresServer server;
    private final EmbeddedPostgresServer embedded;

    private StackPostgres(String origin, PostgresServer server, EmbeddedPostgresServer embedded) {
        this.origin = origin;
        this.server = server;
        this.embedded = embedded;
    }

    /**
     * True when the stack must run its own PostgreSQL: {@code STACK_POSTGRES=embedded}, or {@code auto} with nothing
     * answering at {@code STACK_PG_HOST:STACK_PG_PORT}.
     *
     * @throws StackStartException for {@code STACK_POSTGRES=local} when nothing answers there
     */
    public static boolean mustEmbed(StackOptions options) {
        switch (options.postgres().mode()) {
            case EMBEDDED:
                return true;
            case LOCAL:
                if (!LocalPorts.accepts(
                        options.postgres().host(), options.postgres().port(), 1000)) {
                    throw new StackStartException(
                            "No PostgreSQL answers at " + options.postgres().host() + ":"
                                    + options.postgres().port()
                                    + " (STACK_POSTGRES=local). Start it, point STACK_PG_HOST/STACK_PG_PORT "
                                    + "at a running server, or drop STACK_POSTGRES to let the stack start an embedded one.");
                }
                return false;
            default:
                return !LocalPorts.accepts(
                        options.postgres().host(), options.postgres().port(), 1000);
        }
    }

    /** The embedded server on {@code port}, or the external one; either way says which on the console. */
    public static StackPostgres start(
            boolean embedded, StackOptions options, StackLayout layout, int port, StackConsole console) {
        if (embedded) {
            return startEmbedded(layout, port, console);
        }
        StackPostgres external = external(options);
        console.externalPostgres(external.host(), external.port(), external.user());
        return external;
    }

    /** Uses the server at host:port; the caller has seen it accept TCP connections. */
    public static StackPostgres external(StackOptions options) {
        String origin = "PostgreSQL at " + options.postgres().host() + ":"
                + options.postgres().port();
        StackPostgres external = new StackPostgres(
                origin,
                new PostgresServer(
                        origin,
                        options.postgres().host(),
                        options.postgres().port(),
                        options.postgres().user(),
                        options.postgres().password()),
                null);
        try (Connection ignored = external.connect("postgres")) {
            return external;
        } catch (SQLException e) {
            throw new StackStartException(
                    "PostgreSQL at " + options.postgres().host() + ":"
                            + options.postgres().port()
                            + " accepts TCP connections but refused the login of user '"
                            + options.postgres().user() + "': "
                            + RootCause.firstLine(e.getMessage())
                            + ". Set STACK_PG_USER and STACK_PG_PASSWORD to an account that may "
                            + "create databases, point STACK_PG_HOST/STACK_PG_PORT at another server, or set "
                            + "STACK_POSTGRES=embedded to let the stack run its own PostgreSQL (data in .local/postgres).",
                    e);
        }
    }

    /**
     * Starts the embedded PostgreSQL on the port with its data in {@code <data dir>/postgres} (initialised on first
     * use, kept afterwards). A server left running by a launcher that was killed is stopped first.
     */
    private static StackPostgres startEmbedded(StackLayout layout, int port, StackConsole console) {
        long begin = System.nanoTime();
        Path dataDir = layout.postgresDir();
        Path logFile = layout.postgresLog();
        boolean firstStart = !Files.exists(dataDir.resolve("postgresql.conf"));
        stopLeftRunning(dataDir, console);
        StackPostgres postgres;
        try {
            EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dataDir, port, logFile);
            String origin = "embedded PostgreSQL (data in " + DisplayPath.of(dataDir) + ")";
            postgres = new StackPostgres(origin, server.server(origin), server);
        } catch (IOException | RuntimeException | LinkageError e) {
            throw new StackStartException(
                    "The embedded PostgreSQL did not start on port " + port + " with its data in "
                            + DisplayPath.of(dataDir) + ": " + RootCause.message(e) + ". Its log is "
                            + DisplayPath.of(logFile)
                            + LogTail.of(logFile, 20)
                            + "If the data directory is damaged (an interrupted first start), "
                            + "delete it (everything stored there is lost) and run again; to use a PostgreSQL of your own "
                            + "instead, start it on 127.0.0.1:5432 or set STACK_PG_HOST/STACK_PG_PORT.",
                    e);
        }
        console.embeddedPostgresReady(postgres.port(), (System.nanoTime() - begin) / 1e9, firstStart, dataDir);
        return postgres;
    }

    /**
     * If an earlier launcher was killed before it could stop its embedded server, stops that server (a smart
     * shutdown) so this start can use the directory.
     */
    public static void stopLeftRunning(Path dataDir, StackConsole console) {
        EmbeddedPostgresServer.leftRunningIn(dataDir).ifPresent(postmaster -> {
            console.stoppingLeftoverPostgres(postmaster.pid());
            EmbeddedPostgresServer.stop(postmaster);
        });
    }

    /** "PostgreSQL at host:port" or "embedded PostgreSQL (data in ...)", for messages. */
    public String origin() {
        return origin;
    }

    /** Host, port, user and password of the server. */
    public PostgresServer server() {
        return server;
    }

    public String host() {
        return server.host();
    }

    public int port() {
        return server.port();
    }

    public String user() {
        return server.user();
    }

    public String password() {
        return server.password();
    }

    public boolean isEmbedded() {
        return embedded != null;
    }

    public String jdbcUrl(String database) {
        return server.jdbcUrl(database);
    }

    /**
     * Creates the database unless it exists, with a comment saying whose it is (psql's {@code \l+} shows it).
     *
     * @throws StackStartException naming the server, the user and the privilege that is missing
     */
    public void ensureDatabase(String name, String comment) {
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
                create.execute("COMMENT ON DATABASE \"" + name + "\" IS '" + comment.replace("'", "''") + "'");
            } catch (SQLException e) {
                if (!"42P04".equals(e.getSQLState())) { // created meanwhile by someone else: fine
                    throw e;
                }
            }
        } catch (SQLException e) {
            throw new StackStartException(
                    "Could not create the database '" + name + "' on " + origin + " as user '"
                            + user() + "': " + RootCause.firstLine(e.getMessage())
                            + ". Give that user the CREATEDB privilege (or create "
                            + "the database yourself), or set STACK_PG_USER/STACK_PG_PASSWORD to another account.",
                    e);
        }
    }

    /** Drops the database and ends its sessions; does nothing when it does not exist. */
    public void dropDatabase(String name) {
        try (Connection connection = connect("postgres");
                Statement drop = connection.createStatement()) {
            drop.execute("DROP DATABASE IF EXISTS \"" + name + "\" WITH (FORCE)");
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "could not drop database " + name + " on " + origin + ": " + e.getMessage(), e);
        }
    }

    /** Stops the embedded server; an external one is left as it is. */
    @Override
    public void close() throws IOException {
        if (embedded != null) {
            embedded.close();
        }
    }

    private Connection connect(String database) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user());
        properties.setProperty("password", password());
        properties.setProperty("connectTimeout", "5");
        return DriverManager.getConnection(jdbcUrl(database), properties);
    }
}
