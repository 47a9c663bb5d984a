package dev.cryptopay.deploy;

import dev.cryptopay.testsupport.PostgresServer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The environment the launcher gives one service: its port, its database, Kafka, the secrets and internal callers' keys
 * it needs and the sandbox settings, then whatever {@link StackOptions#serviceEnv} added (which wins).
 */
final class ServiceEnvironment {

    static final String GATEWAY_PRIVATE_KEY = StackFiles.GATEWAY_PRIVATE_KEY;
    static final String GATEWAY_PUBLIC_KEYS = "GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS";
    static final String CHAIN_WATCHER_PRIVATE_KEY = StackFiles.CHAIN_WATCHER_PRIVATE_KEY;
    static final String CHAIN_WATCHER_PUBLIC_KEYS = "CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS";

    /**
     * The internal callers' keys, which a service gets from the launcher or not at all: they are taken out of the
     * environment the services inherit, so a key set in your shell (for docker compose, say) reaches no service that
     * should not hold it.
     */
    static final Set<String> INTERNAL_AUTH_VARIABLES =
            Set.of(GATEWAY_PRIVATE_KEY, GATEWAY_PUBLIC_KEYS, CHAIN_WATCHER_PRIVATE_KEY, CHAIN_WATCHER_PUBLIC_KEYS);

    /** chain-watcher's confirmations on the dev chain: 1, as anvil mines blocks only for transactions. */
    static final int DEV_CHAIN_CONFIRMATIONS = 1;

    private ServiceEnvironment() {}

    /**
     * Puts a service's environment into the one its process inherits from the launcher, after taking the internal
     * callers' keys out of it: only those the launcher gave this service remain.
     */
    static void applyTo(Map<String, String> inherited, Map<String, String> environment) {
        inherited.keySet().removeAll(INTERNAL_AUTH_VARIABLES);
        inherited.putAll(environment);
    }

    static Map<String, String> of(
            StackService service,
            StackOptions options,
            Ports ports,
            StackFiles.Secrets secrets,
            PostgresServer postgres) {
        return of(service, 1, options, ports, secrets, postgres);
    }

    /**
     * The environment of one instance: its own ports; every other service's address is the service's port, which
     * balances that service's instances when there are more than one.
     */
    static Map<String, String> of(
            StackService service,
            int instance,
            StackOptions options,
            Ports ports,
            StackFiles.Secrets secrets,
            PostgresServer postgres) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PORT", String.valueOf(ports.instancePort(StackPort.of(service), instance)));
        // Each service holds only the internal callers' keys it needs: a caller its own private key, a receiver the
        // public keys of the callers it accepts (the gateway's in the three services behind it, the chain watcher's in
        // the two that take its reports). No private key is in any other process.
        switch (service) {
            case GATEWAY -> env.put(GATEWAY_PRIVATE_KEY, secrets.gateway().privateKey());
            case CHAIN_WATCHER ->
                env.put(CHAIN_WATCHER_PRIVATE_KEY, secrets.chainWatcher().privateKey());
            case PAYMENT_LINKS, SUBSCRIPTIONS -> {
                env.put(GATEWAY_PUBLIC_KEYS, secrets.gateway().publicKey());
                env.put(CHAIN_WATCHER_PUBLIC_KEYS, secrets.chainWatcher().publicKey());
            }
            case WEBHOOKS, NOTIFICATIONS ->
                env.put(GATEWAY_PUBLIC_KEYS, secrets.gateway().publicKey());
        }
        env.put("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + ports.port(StackPort.KAFKA));
        String database = options.databaseName(service);
        String prefix = service == StackService.GATEWAY ? "GATEWAY_DB_" : "DATABASE_"; // the gateway has its own names
        env.put(prefix + "R2DBC_URL", postgres.r2dbcUrl(database));
        env.put(prefix + "JDBC_URL", postgres.jdbcUrl(database));
        env.put(prefix + "USER", postgres.user());
        env.put(prefix + "PASSWORD", postgres.password());
        if (service == StackService.GATEWAY) {
            env.put("GATEWAY_ADMIN_PORT", String.valueOf(ports.instancePort(StackPort.ADMIN, instance)));
            env.put("GATEWAY_ADMIN_TOKEN", secrets.adminToken());
            env.put("GATEWAY_SIGNUP_ENABLED", "true"); // the dashboard's sign-up: on locally, off by default elsewhere
            env.put("PAYMENT_LINKS_URL", ports.url(StackPort.PAYMENT_LINKS));
            env.put("SUBSCRIPTIONS_URL", ports.url(StackPort.SUBSCRIPTIONS));
            env.put("WEBHOOKS_URL", ports.url(StackPort.WEBHOOKS));
            env.put("NOTIFICATIONS_URL", ports.url(StackPort.NOTIFICATIONS));
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
        if (service == StackService.NOTIFICATIONS) {
            // The launcher's GreenMail: every e-mail the suite sends lands there (./dev-mail reads them).
            env.put("SMTP_HOST", "127.0.0.1");
            env.put("SMTP_PORT", String.valueOf(ports.port(StackPort.SMTP)));
            // The reminders read balances and allowances on the dev chain; none without one.
            env.put("DEV_CHAIN_RPC_URL", ports.planned(StackPort.DEV_CHAIN) ? ports.url(StackPort.DEV_CHAIN) : "");
        }
        env.putAll(options.serviceEnvironment.getOrDefault(service, Map.of()));
        return env;
    }
}
