package dev.cryptopay.testsupport.hostile;

import dev.cryptopay.testsupport.TestDatabase;
import dev.cryptopay.testsupport.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A fingerprint of every row one merchant owns in a service's database (each table with a {@code merchant_id} column),
 * read over JDBC: equal fingerprints before and after a request mean the request changed none of that merchant's
 * data. Other merchants' rows are left out, so background work on them (outbox relays, sweeps) cannot disturb it.
 * One connection is kept open from the first read until {@link #close()} (a runner reads it after every request; a
 * new connection each time would cost more than most requests), and opened again by a read after that.
 */
public final class MerchantRows implements Supplier<String>, AutoCloseable {

    private final TestDatabase database;
    private final UUID merchantId;
    private final String query;
    private final int tables;
    private Connection connection;

    private MerchantRows(TestDatabase database, UUID merchantId) {
        this.database = database;
        this.merchantId = merchantId;
        List<String> merchantTables = merchantTables();
        this.query = fingerprintQuery(merchantTables);
        this.tables = merchantTables.size();
    }

    /** The fingerprint of {@code merchantId}'s rows in the shared test database {@code databaseName}. */
    public static MerchantRows of(String databaseName, UUID merchantId) {
        return new MerchantRows(TestPostgres.sharedDatabase(databaseName), merchantId);
    }

    @Override
    public String get() {
        try {
            if (connection == null || connection.isClosed()) {
                connection = connect();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + database.name(), e);
        }
        try (PreparedStatement statement = connection.prepareStatement(query)) {
            for (int parameter = 1; parameter <= tables; parameter++) {
                statement.setObject(parameter, merchantId);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getString(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the merchant's rows", e);
        }
    }

    /** Closes the connection the reads keep open. */
    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                throw new IllegalStateException("cannot close the connection to " + database.name(), e);
            } finally {
                connection = null;
            }
        }
    }

    private List<String> merchantTables() {
        try (Connection connection = connect();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT table_name FROM information_schema.columns WHERE table_schema = 'public'"
                                + " AND column_name = 'merchant_id' ORDER BY table_name");
                ResultSet rows = statement.executeQuery()) {
            List<String> tables = new ArrayList<>();
            while (rows.next()) {
                tables.add(rows.getString(1));
            }
            if (tables.isEmpty()) {
                throw new IllegalStateException("no table with a merchant_id column in " + database.name());
            }
            return tables;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot list the merchant tables", e);
        }
    }

    private static String fingerprintQuery(List<String> tables) {
        List<String> parts = new ArrayList<>();
        for (String table : tables) {
            parts.add("'" + table + ":' || coalesce((SELECT string_agg(t::text, '|' ORDER BY t::text) FROM \"" + table
                    + "\" t WHERE merchant_id = ?), '')");
        }
        return "SELECT md5(" + String.join(" || '#' || ", parts) + ")";
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
    }
}
