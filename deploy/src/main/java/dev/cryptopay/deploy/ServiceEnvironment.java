package dev.cryptopay.deploy;

import dev.cryptopay.testsupport.PostgresServer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment the launcher gives one service: its port, its database, Kafka, the secrets it needs and the sandbox
 * settings, then whatever {@link StackOptions#serviceEnv} added (which wins).
 */
final class ServiceEnvironment {

    /** chain-watcher's confirmations on the dev chain: 1, as anvil mines blocks only for transactions. */
    static final int DEV_CHAIN_CONFIRMATIONS = 1;

    private ServiceEnvironment() {}

    static Map<String, String> of(
            StackService service,
            StackOptions options,
            Ports ports,
            StackFiles.Secrets secrets,
            PostgresServer postgres) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PORT", String.valueOf(ports.port(StackPort.of(service))));
        // Each service holds only the internal callers' secrets it needs: the gateway's everywhere but in
        // chain-watcher, the chain watcher's in itself and in the two services that take its reports.
        if (service != StackService.CHAIN_WATCHER) {
            env.put("INTERNAL_AUTH_SECRET", secrets.internalAuthSecret());
        }
        if (service == StackService.CHAIN_WATCHER
                || service == StackService.PAYMENT_LINKS
                || service == StackService.SUBSCRIPTIONS) {
            env.put("CHAIN_WATCHER_INTERNAL_AUTH_SECRET", secrets.chainWatcherSecret());
        }
        env.put("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + ports.port(StackPort.KAFKA));
        String database = options.databaseName(service);
        String prefix = service == StackService.GATEWAY ? "GATEWAY_DB_" : "DATABASE_"; // the gateway has its own names
        env.put(prefix + "R2DBC_URL", postgres.r2dbcUrl(database));
        env.put(prefix + "JDBC_URL", postgres.jdbcUrl(database));
        env.put(prefix + "USER", postgres.user());
        env.put(prefix + "PASSWORD", postgres.password());
        if (service == StackService.GATEWAY) {
            env.put("GATEWAY_ADMIN_PORT", String.valueOf(ports.port(StackPort.ADMIN)));
            env.put("GATEWAY_ADMIN_TOKEN", secrets.adminToken());
            env.put("GATEWAY_SIGNUP_ENABLED", "true"); // the dashboard's sign-up: on locally, off by default elsewhere
            env.put("PAYMENT_LINKS_URL", ports.url(StackPort.PAYMENT_LINKS));
            env.put("SUBSCRIPTIONS_URL", ports.url(StackPort.SUBSCRIPTIONS));
            env.put("WEBHOOKS_URL", ports.url(StackPort.WEBHOOKS));
        }
        if (service == StackService.PAYMENT_LINKS || service == StackService.SUBSCRIPTIONS) {
            // payment_url and subscription_link_url point at the pages the gateway serves at /checkout.
            env.put("CHECKOUT_URL", ports.url(StackPort.GATEWAY) + "/checkout");
        }
        if (service == StackService.CHAIN_WATCHER) {
            env.put("PAYMENT_LINKS_URL", ports.url(StackPort.PAYMENT_LINKS));
            env.put("SUBSCRIPTIONS_URL", ports.url(StackPort.SUBSCRIPTIONS));
            env.put("DEV_CHAIN_RPC_URL", ports.url(StackPort.DEV_CHAIN));
            // The keeper's gas: anvil's dev account 7, as in docker compose (a public key nothing else sends from).
            env.put("KEEPER_KEY_FILE_31337", options.home + "/dev-chain/dev-keeper.key");
            env.put("DEV_CHAIN_CONFIRMATIONS", String.valueOf(DEV_CHAIN_CONFIRMATIONS));
        }
        if (service == StackService.SUBSCRIPTIONS) {
            // NFT metadata links point at the local gateway.
            env.put("PUBLIC_API_URL", ports.url(StackPort.GATEWAY) + "/api/v1");
            // The enrolment kit reads the wallet's current allowance on the dev chain (it adds to it); none without
            // one.
            env.put("DEV_CHAIN_RPC_URL", ports.planned(StackPort.DEV_CHAIN) ? ports.url(StackPort.DEV_CHAIN) : "");
        }
        if (service == StackService.WEBHOOKS) {
            env.put("WEBHOOK_SECRET_ENCRYPTION_KEY", secrets.webhookEncryptionKey());
            // Local sandbox only: deliver to http://127.0.0.1:... endpoints (production default stays false).
            env.put("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", "true");
            if (options.fastWebhookRetries) {
                env.put("WEBHOOKS_DELIVERY_RETRYSCHEDULE", StackOptions.FAST_WEBHOOK_RETRY_SCHEDULE);
            }
        }
        env.putAll(options.serviceEnvironment.getOrDefault(service, Map.of()));
        return env;
    }
}
