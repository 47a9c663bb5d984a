package dev.cryptopay.testsupport;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Gives a test class its own database, created on first use and dropped after the class.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final PostgresDatabaseExtension postgres = new PostgresDatabaseExtension();
 *
 * @DynamicPropertySource
 * static void database(DynamicPropertyRegistry registry) {
 *     postgres.registerSpringProperties(registry);
 * }
 * }</pre>
 * The database is created lazily because Spring resolves dynamic properties when it builds the context, which may
 * come before or after JUnit's before-all callbacks.
 */
public final class PostgresDatabaseExtension implements AfterAllCallback {

    private TestDatabase database;

    /** The class's database, created on first call. */
    public synchronized TestDatabase database() {
        if (database == null) {
            database = TestPostgres.newDatabase();
        }
        return database;
    }

    /** R2DBC and Flyway (JDBC) settings pointing at this class's database. */
    public void registerSpringProperties(DynamicPropertyRegistry registry) {
        register(registry, this::database);
    }

    /** R2DBC and Flyway (JDBC) settings pointing at the given database. */
    public static void register(DynamicPropertyRegistry registry, java.util.function.Supplier<TestDatabase> database) {
        registry.add("spring.r2dbc.url", () -> database.get().r2dbcUrl());
        registry.add("spring.r2dbc.username", () -> database.get().user());
        registry.add("spring.r2dbc.password", () -> database.get().password());
        registry.add("spring.flyway.url", () -> database.get().jdbcUrl());
        registry.add("spring.flyway.user", () -> database.get().user());
        registry.add("spring.flyway.password", () -> database.get().password());
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) {
        if (database != null) {
            database.close();
            database = null;
        }
    }
}
