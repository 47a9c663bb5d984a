package dev.cryptopay.bench.chain;

import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The database of a chain-watcher a benchmark starts: made anew for each measurement on the PostgreSQL server at
 * {@code host:port} (user postgres, trust), and read with plain JDBC to see what the watcher has done.
 */
final class WatcherDatabase {

    private final String postgres;
    private final String name;

    WatcherDatabase(String postgres, String name) {
        this.postgres = postgres;
        this.name = name;
    }

    /** Drops the database (closing its connections) and creates it empty. */
    void recreate() throws SQLException {
        try (Connection admin = connect("postgres");
                Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + name);
        }
    }

    Connection connect() throws SQLException {
        return connect(name);
    }

    String r2dbcUrl() {
        return "r2dbc:postgresql://" + postgres + "/" + name;
    }

    String jdbcUrl() {
        return "jdbc:postgresql://" + postgres + "/" + name;
    }

    String name() {
        return name;
    }

    /**
     * The environment of a watcher on this database that reaches the dev chain at {@code rpcUrl} and reports to
     * {@code sinkUrl} (standing in for payment-links-service and subscriptions-service), without Kafka; a mutable map,
     * for the benchmark's own additions.
     */
    Map<String, String> watcherEnvironment(String rpcUrl, String sinkUrl) {
        Map<String, String> environment = new HashMap<>();
        environment.put("DATABASE_R2DBC_URL", r2dbcUrl());
        environment.put("DATABASE_JDBC_URL", jdbcUrl());
        environment.put("DATABASE_USER", "postgres");
        environment.put("DATABASE_PASSWORD", "");
        // A key made for this run: the stand-in receivers check nothing.
        environment.put(
                "CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY",
                Ed25519KeyPairs.generate(new SecureRandom()).privateKeyCompact());
        environment.put("DEV_CHAIN_RPC_URL", rpcUrl);
        environment.put("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9");
        environment.put("PAYMENT_LINKS_URL", sinkUrl);
        environment.put("SUBSCRIPTIONS_URL", sinkUrl);
        return environment;
    }

    /** The first column of the first row of {@code sql}, a count. */
    static long count(Connection db, String sql) throws SQLException {
        try (Statement statement = db.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    /** Waits until {@code sql} counts {@code expected}; fails after {@code timeout}, naming {@code what}. */
    static void await(Connection db, String sql, long expected, Duration timeout, String what) throws SQLException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count(db, sql) != expected) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "timed out waiting for " + what + " (" + count(db, sql) + " of " + expected + ")");
            }
            WatcherProcess.pause(Duration.ofMillis(50));
        }
    }

    private Connection connect(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + postgres + "/" + database, "postgres", "");
    }
}
