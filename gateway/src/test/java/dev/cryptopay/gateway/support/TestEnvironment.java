package dev.cryptopay.gateway.support;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.testsupport.InternalTestKeys;
import dev.cryptopay.testsupport.TestDatabase;
import dev.cryptopay.testsupport.TestPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What all gateway tests of this JVM share: one database on the real test PostgreSQL, three echo upstreams and the
 * secrets. Shared (not per class) so every test class reuses one cached Spring context.
 */
public final class TestEnvironment {

    public static final String ADMIN_TOKEN = "test-admin-token-0123456789-abcdefghij";

    private static TestDatabase database;
    private static EchoServer paymentLinks;
    private static EchoServer subscriptions;
    private static EchoServer webhooks;
    private static EchoServer notifications;

    private TestEnvironment() {}

    public static synchronized TestDatabase database() {
        if (database == null) {
            database = TestPostgres.newDatabase();
            TestDatabase created = database;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    created.close();
                } catch (RuntimeException ignored) {
                    // the server may already be gone
                }
            }));
        }
        return database;
    }

    public static synchronized EchoServer paymentLinks() {
        if (paymentLinks == null) {
            paymentLinks = EchoServer.start(InternalCallers.PAYMENT_LINKS_SERVICE);
        }
        return paymentLinks;
    }

    public static synchronized EchoServer subscriptions() {
        if (subscriptions == null) {
            subscriptions = EchoServer.start(InternalCallers.SUBSCRIPTIONS_SERVICE);
        }
        return subscriptions;
    }

    public static synchronized EchoServer webhooks() {
        if (webhooks == null) {
            webhooks = EchoServer.start(InternalCallers.WEBHOOK_SERVICE);
        }
        return webhooks;
    }

    public static synchronized EchoServer notifications() {
        if (notifications == null) {
            notifications = EchoServer.start(InternalCallers.NOTIFICATION_SERVICE);
        }
        return notifications;
    }

    /** Properties every gateway in the tests runs with; the main test context uses exactly these. */
    public static Map<String, String> gatewayProperties() {
        TestDatabase db = database();
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.r2dbc.url", db.r2dbcUrl());
        properties.put("spring.r2dbc.username", db.user());
        properties.put("spring.r2dbc.password", db.password());
        properties.put("spring.flyway.url", db.jdbcUrl());
        properties.put("spring.flyway.user", db.user());
        properties.put("spring.flyway.password", db.password());
        properties.put("gateway.internal-auth.private-key", InternalTestKeys.GATEWAY_PRIVATE_KEY);
        properties.put("gateway.admin.token", ADMIN_TOKEN);
        properties.put("gateway.admin.port", "0");
        properties.put("gateway.upstreams.payment-links", paymentLinks().url());
        properties.put("gateway.upstreams.subscriptions", subscriptions().url());
        properties.put("gateway.upstreams.webhooks", webhooks().url());
        properties.put("gateway.upstreams.notifications", notifications().url());
        properties.put("gateway.keys.cache-ttl", "1s");
        // Events stay in the outbox table, where the tests read them; the relay to Kafka is service-support's, tested
        // there and by the end-to-end tests.
        properties.put("outbox.relay-enabled", "false");
        // Lets tests pick their client IP with X-Forwarded-For (they connect from 127.0.0.1).
        properties.put("gateway.trusted-proxies", "127.0.0.1");
        // Most tests connect from 127.0.0.1 together; the pre-authentication limit has its own test instance.
        properties.put("gateway.rate-limit.limits.pre-auth", "100000");
        return properties;
    }

    /** A local port nothing listens on. */
    public static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
