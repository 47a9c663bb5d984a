package dev.cryptopay.deploy;

/**
 * Which PostgreSQL the stack uses and how it logs in ({@code STACK_POSTGRES}, {@code STACK_PG_*}).
 *
 * @param mode     {@code auto}: the server at host:port when it answers, else an embedded one; {@code local}: only
 *                 that server; {@code embedded}: always the stack's own
 * @param host     the external server's host
 * @param port     the external server's port
 * @param user     an account of the external server that may create databases
 * @param password its password, empty for none
 */
public record PostgresTarget(PostgresMode mode, String host, int port, String user, String password) {

    /** The local server at 127.0.0.1:5432 as {@code postgres} without a password, when it answers. */
    static PostgresTarget defaults() {
        return new PostgresTarget(PostgresMode.AUTO, "127.0.0.1", 5432, "postgres", "");
    }

    PostgresTarget withMode(PostgresMode newMode) {
        return new PostgresTarget(newMode, host, port, user, password);
    }

    PostgresTarget withServer(String newHost, int newPort) {
        return new PostgresTarget(mode, newHost, newPort, user, password);
    }

    PostgresTarget withLogin(String newUser, String newPassword) {
        return new PostgresTarget(mode, host, port, newUser, newPassword == null ? "" : newPassword);
    }

    /** Never shows the password. */
    @Override
    public String toString() {
        return "PostgresTarget[" + mode + ", " + user + "@" + host + ":" + port + "]";
    }
}
