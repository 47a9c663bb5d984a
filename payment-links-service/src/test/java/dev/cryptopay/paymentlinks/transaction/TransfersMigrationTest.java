package dev.cryptopay.paymentlinks.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.testsupport.TestDatabase;
import dev.cryptopay.testsupport.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * V6 on a database holding transactions recorded before it: each keeps its link's token and currency, a native-coin
 * link's transaction gets log index -1 and a token link's -2 (adopted by its next report), and the same hash may then
 * be recorded again under another log index.
 */
class TransfersMigrationTest {

    private static Flyway flyway(TestDatabase database, String target) {
        return Flyway.configure()
                .dataSource(database.jdbcUrl(), database.user(), database.password())
                .locations("classpath:db/outbox", "classpath:db/idempotency", "classpath:db/migration")
                .target(target)
                .load();
    }

    @Test
    void recordsFromBeforeKeepTheirLinksTokenAndGetALogIndex() throws SQLException {
        try (TestDatabase database = TestPostgres.newDatabase()) {
            flyway(database, "5").migrate();
            try (Connection connection =
                            DriverManager.getConnection(database.jdbcUrl(), database.user(), database.password());
                    Statement sql = connection.createStatement()) {
                sql.execute(link(
                        "11111111-1111-1111-1111-111111111111",
                        "USDC",
                        "1",
                        "'0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'"));
                sql.execute(link("22222222-2222-2222-2222-222222222222", "ETH", "1", "NULL"));
                sql.execute(link("33333333-3333-3333-3333-333333333333", "USDC", "NULL", "NULL"));
                sql.execute(transaction("11111111-1111-1111-1111-111111111111", "0xaa"));
                sql.execute(transaction("22222222-2222-2222-2222-222222222222", "0xbb"));
                sql.execute(transaction("33333333-3333-3333-3333-333333333333", "0xcc"));

                flyway(database, "latest").migrate();

                assertThat(rows(
                                sql,
                                "SELECT tx_hash, log_index, token_contract, asset, unexpected_asset "
                                        + "FROM link_transaction ORDER BY tx_hash"))
                        .containsExactly(
                                "0xaa -2 0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48 USDC false",
                                "0xbb -1 null ETH false",
                                "0xcc -2 null USDC false");
                // Another transfer of the same transaction is recorded beside it; the same transfer twice is not.
                sql.execute(transfer("11111111-1111-1111-1111-111111111111", "0xaa", 3));
                assertThatThrownBy(() -> sql.execute(transfer("22222222-2222-2222-2222-222222222222", "0xaa", 3)))
                        .hasMessageContaining("link_transaction_transfer_unique");
            }
        }
    }

    private static String link(String id, String currency, String chainId, String token) {
        return "INSERT INTO payment_link (id, merchant_id, mode, payment_name, amount, currency, network, "
                + "payment_status, expires_at, max_uses, current_uses, is_active, customer_id, order_id, auto_fill, "
                + "created_at, updated_at, chain_id, token_contract, decimals, amount_base_units) VALUES ('" + id
                + "', gen_random_uuid(), 'live', 'Old', 10, '" + currency + "', 'Ethereum', 'pending', now(), 1, 0, "
                + "TRUE, 'CUST', 'ORD-" + id + "', TRUE, now(), now(), " + chainId + ", " + token + ", "
                + ("NULL".equals(chainId) ? "NULL, NULL" : "6, 10000000") + ")";
    }

    /** A transaction as V5 stored it. */
    private static String transaction(String linkId, String hash) {
        return "INSERT INTO link_transaction (id, payment_link_id, network, tx_hash, payer_address, crypto_amount, "
                + "status, created_at, updated_at) VALUES (gen_random_uuid(), '" + linkId + "', 'Ethereum', '" + hash
                + "', '0xpayer', 10, 'pending', now(), now())";
    }

    /** A transfer as V6 stores it. */
    private static String transfer(String linkId, String hash, int logIndex) {
        return "INSERT INTO link_transaction (id, payment_link_id, network, tx_hash, log_index, asset, payer_address, "
                + "crypto_amount, status, created_at, updated_at) VALUES (gen_random_uuid(), '" + linkId
                + "', 'Ethereum', '" + hash + "', " + logIndex + ", 'USDC', '0xpayer', 10, 'pending', now(), now())";
    }

    private static List<String> rows(Statement sql, String query) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet result = sql.executeQuery(query)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<String> values = new ArrayList<>();
                for (int column = 1; column <= columns; column++) {
                    values.add(String.valueOf(result.getObject(column)));
                }
                rows.add(String.join(" ", values));
            }
        }
        return rows;
    }
}
