package dev.cryptopay.deploy;

/** Which PostgreSQL the stack uses ({@code STACK_POSTGRES}). */
public enum PostgresMode {
    /** The server at {@code pgHost:pgPort} when something listens there, otherwise an embedded one. */
    AUTO,
    /** Only the server at {@code pgHost:pgPort}; fail when it does not answer. */
    LOCAL,
    /** Always an embedded PostgreSQL with its data in {@code <dataDir>/postgres}. */
    EMBEDDED
}
