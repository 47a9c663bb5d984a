package dev.cryptopay.testsupport;

/**
 * A reachable PostgreSQL server on which tests may create and drop databases.
 *
 * @param origin how the server was obtained, shown in logs so a reader knows what the tests ran against
 */
public record PostgresServer(String origin, String host, int port, String user, String password) {

    /** JDBC URL of the given database on this server. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database;
    }

    /** R2DBC URL of the given database on this server (credentials are passed separately). */
    public String r2dbcUrl(String database) {
        return "r2dbc:postgresql://" + host + ":" + port + "/" + database;
    }
}
