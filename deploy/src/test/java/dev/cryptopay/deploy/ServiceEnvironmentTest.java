package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.testsupport.PostgresServer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ServiceEnvironmentTest {

    private final StackOptions options = new StackOptions();

    {
        options.ports.replaceAll((port, number) -> 0); // free ports
    }

    private final String suffix = new StackFiles(options.dataDir).databaseSuffix();
    private final Ports ports = Ports.assign(options.ports, port -> false, Set.of(StackPort.EMBEDDED_POSTGRES));
    private final StackFiles.Secrets secrets = new StackFiles.Secrets(
            new StackFiles.InternalKeyPair("gateway-private", "gateway-public"),
            new StackFiles.InternalKeyPair("watcher-private", "watcher-public"),
            "admin-token",
            "webhook-key");
    private final PostgresServer postgres = new PostgresServer("test", "db.local", 6543, "stack", "pw");

    @Test
    void theGatewayGetsItsDatabaseAdminApiAndTheServicesItRoutesTo() {
        Map<String, String> env = environment(StackService.GATEWAY);

        assertThat(env.keySet())
                .containsExactly(
                        "PORT",
                        "GATEWAY_INTERNAL_AUTH_PRIVATE_KEY",
                        "KAFKA_BOOTSTRAP_SERVERS",
                        "GATEWAY_DB_R2DBC_URL",
                        "GATEWAY_DB_JDBC_URL",
                        "GATEWAY_DB_USER",
                        "GATEWAY_DB_PASSWORD",
                        "GATEWAY_ADMIN_PORT",
                        "GATEWAY_ADMIN_TOKEN",
                        "GATEWAY_SIGNUP_ENABLED",
                        "PAYMENT_LINKS_URL",
                        "SUBSCRIPTIONS_URL",
                        "WEBHOOKS_URL",
                        "NOTIFICATIONS_URL");
        assertThat(env)
                .containsEntry("PORT", String.valueOf(ports.port(StackPort.GATEWAY)))
                .as("its own private key: it signs what it forwards")
                .containsEntry("GATEWAY_INTERNAL_AUTH_PRIVATE_KEY", "gateway-private")
                .containsEntry("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + ports.port(StackPort.KAFKA))
                .containsEntry("GATEWAY_DB_R2DBC_URL", "r2dbc:postgresql://db.local:6543/gateway" + suffix)
                .containsEntry("GATEWAY_DB_JDBC_URL", "jdbc:postgresql://db.local:6543/gateway" + suffix)
                .containsEntry("GATEWAY_DB_USER", "stack")
                .containsEntry("GATEWAY_DB_PASSWORD", "pw")
                .containsEntry("GATEWAY_ADMIN_PORT", String.valueOf(ports.port(StackPort.ADMIN)))
                .containsEntry("GATEWAY_ADMIN_TOKEN", "admin-token")
                .containsEntry("GATEWAY_SIGNUP_ENABLED", "true")
                .containsEntry("PAYMENT_LINKS_URL", "http://127.0.0.1:" + ports.port(StackPort.PAYMENT_LINKS))
                .containsEntry("WEBHOOKS_URL", "http://127.0.0.1:" + ports.port(StackPort.WEBHOOKS))
                .containsEntry("NOTIFICATIONS_URL", "http://127.0.0.1:" + ports.port(StackPort.NOTIFICATIONS));
    }

    @Test
    void aServiceGetsItsOwnDatabaseAndNoGatewaySettings() {
        Map<String, String> env = environment(StackService.PAYMENT_LINKS);

        assertThat(env)
                .containsEntry("PORT", String.valueOf(ports.port(StackPort.PAYMENT_LINKS)))
                .as("payment_url points at the checkout page the gateway serves")
                .containsEntry("CHECKOUT_URL", ports.url(StackPort.GATEWAY) + "/checkout")
                .containsEntry("DATABASE_R2DBC_URL", "r2dbc:postgresql://db.local:6543/payment_links" + suffix)
                .containsEntry("DATABASE_JDBC_URL", "jdbc:postgresql://db.local:6543/payment_links" + suffix)
                .containsEntry("DATABASE_USER", "stack")
                .containsEntry("DATABASE_PASSWORD", "pw")
                .as("the gateway's and the chain watcher's public keys: it takes both callers")
                .containsEntry("GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS", "gateway-public")
                .containsEntry("CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS", "watcher-public")
                .as("no private key: it checks tokens, it never makes one")
                .doesNotContainKeys(
                        "GATEWAY_INTERNAL_AUTH_PRIVATE_KEY",
                        "CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY",
                        "GATEWAY_ADMIN_TOKEN",
                        "WEBHOOK_SECRET_ENCRYPTION_KEY");
    }

    @Test
    void subscriptionsServiceGetsItsDatabaseKafkaAndTheKeysLikePaymentLinks() {
        Map<String, String> env = environment(StackService.SUBSCRIPTIONS);

        assertThat(env.keySet())
                .containsExactly(
                        "PORT",
                        "GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS",
                        "CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS",
                        "KAFKA_BOOTSTRAP_SERVERS",
                        "DATABASE_R2DBC_URL",
                        "DATABASE_JDBC_URL",
                        "DATABASE_USER",
                        "DATABASE_PASSWORD",
                        "CHECKOUT_URL",
                        "PUBLIC_API_URL",
                        "DEV_CHAIN_RPC_URL");
        assertThat(env)
                .containsEntry("PORT", String.valueOf(ports.port(StackPort.SUBSCRIPTIONS)))
                .containsEntry("PUBLIC_API_URL", ports.url(StackPort.GATEWAY) + "/api/v1")
                .containsEntry("GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS", "gateway-public")
                .as("it takes the chain watcher's reports of the subscription contract's logs")
                .containsEntry("CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS", "watcher-public")
                .containsEntry("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + ports.port(StackPort.KAFKA))
                .containsEntry("DATABASE_R2DBC_URL", "r2dbc:postgresql://db.local:6543/subscriptions" + suffix)
                .containsEntry("DATABASE_JDBC_URL", "jdbc:postgresql://db.local:6543/subscriptions" + suffix)
                .containsEntry("DATABASE_USER", "stack")
                .containsEntry("DATABASE_PASSWORD", "pw");
        Set<String> paymentLinks =
                new java.util.TreeSet<>(environment(StackService.PAYMENT_LINKS).keySet());
        assertThat(env.keySet())
                .as("payment-links-service's settings and the public API address")
                .containsAll(paymentLinks);
        assertThat(env)
                .as("subscription_link_url opens the subscribe page the gateway serves")
                .containsEntry("CHECKOUT_URL", ports.url(StackPort.GATEWAY) + "/checkout");
    }

    @Test
    void chainWatcherGetsItsDatabaseKafkaPaymentLinksServiceAndTheDevChainWithOneConfirmation() {
        Map<String, String> env = environment(StackService.CHAIN_WATCHER);

        assertThat(env.keySet())
                .as("its own private key, no key of the gateway's")
                .containsExactly(
                        "PORT",
                        "CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY",
                        "KAFKA_BOOTSTRAP_SERVERS",
                        "DATABASE_R2DBC_URL",
                        "DATABASE_JDBC_URL",
                        "DATABASE_USER",
                        "DATABASE_PASSWORD",
                        "PAYMENT_LINKS_URL",
                        "SUBSCRIPTIONS_URL",
                        "DEV_CHAIN_RPC_URL",
                        "KEEPER_KEY_FILE_31337",
                        "DEV_CHAIN_CONFIRMATIONS");
        assertThat(env)
                .containsEntry("PORT", String.valueOf(ports.port(StackPort.CHAIN_WATCHER)))
                .containsEntry("CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY", "watcher-private")
                .containsEntry("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + ports.port(StackPort.KAFKA))
                .containsEntry("DATABASE_JDBC_URL", "jdbc:postgresql://db.local:6543/chain_watcher" + suffix)
                .containsEntry("PAYMENT_LINKS_URL", ports.url(StackPort.PAYMENT_LINKS))
                .containsEntry("SUBSCRIPTIONS_URL", ports.url(StackPort.SUBSCRIPTIONS))
                .containsEntry("DEV_CHAIN_RPC_URL", ports.url(StackPort.DEV_CHAIN))
                .as("the keeper's key: anvil's dev account 7, as docker compose gives it")
                .containsEntry("KEEPER_KEY_FILE_31337", options.home + "/dev-chain/dev-keeper.key")
                .containsEntry("DEV_CHAIN_CONFIRMATIONS", "1");
    }

    @Test
    void everyServiceHasADatabaseOfItsOwn() {
        assertThat(Arrays.stream(StackService.values()).map(options::databaseName))
                .containsExactly(
                        "gateway" + suffix,
                        "payment_links" + suffix,
                        "subscriptions" + suffix,
                        "webhooks" + suffix,
                        "notifications" + suffix,
                        "chain_watcher" + suffix);
    }

    @Test
    void theWebhookServiceGetsTheGatewaysPublicKeyOnly() {
        assertThat(environment(StackService.WEBHOOKS))
                .as("the gateway is its one caller")
                .containsEntry("GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS", "gateway-public")
                .doesNotContainKeys(
                        "GATEWAY_INTERNAL_AUTH_PRIVATE_KEY",
                        "CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY",
                        "CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS");
    }

    @Test
    void eachPrivateKeyIsOnlyInItsOwnCallerAndEveryKeyVariableIsOneTheLauncherControls() {
        Map<StackService, String> ownKey =
                Map.of(StackService.GATEWAY, "gateway-private", StackService.CHAIN_WATCHER, "watcher-private");
        for (StackService service : StackService.values()) {
            Map<String, String> env = environment(service);
            assertThat(env.values().stream().filter(value -> value.endsWith("-private")))
                    .as(service + ": the private keys it holds")
                    .containsExactlyElementsOf(ownKey.containsKey(service) ? List.of(ownKey.get(service)) : List.of());
            assertThat(env.keySet().stream().filter(key -> key.contains("INTERNAL_AUTH")))
                    .as(service + ": keys taken out of what it inherits, so only the launcher's reach it")
                    .isNotEmpty()
                    .allMatch(ServiceEnvironment.INTERNAL_AUTH_VARIABLES::contains);
        }
    }

    @Test
    void aKeyInTheLaunchersEnvironmentReachesNoServiceTheLauncherDidNotGiveItTo() {
        Map<String, String> inherited = new java.util.HashMap<>(Map.of(
                "GATEWAY_INTERNAL_AUTH_PRIVATE_KEY", "from-the-shell",
                "CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS", "from-the-shell",
                "LOGGING_LEVEL_ROOT", "info"));

        ServiceEnvironment.applyTo(inherited, environment(StackService.CHAIN_WATCHER));

        assertThat(inherited)
                .doesNotContainKeys("GATEWAY_INTERNAL_AUTH_PRIVATE_KEY", "CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS")
                .containsEntry("CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY", "watcher-private")
                .as("everything else still reaches the services")
                .containsEntry("LOGGING_LEVEL_ROOT", "info");
    }

    @Test
    void theWebhookServiceGetsTheSandboxSettings() {
        assertThat(environment(StackService.WEBHOOKS))
                .containsEntry("DATABASE_JDBC_URL", "jdbc:postgresql://db.local:6543/webhooks" + suffix)
                .containsEntry("WEBHOOK_SECRET_ENCRYPTION_KEY", "webhook-key")
                .containsEntry("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", "true")
                .containsEntry("WEBHOOKS_DELIVERY_RETRYSCHEDULE", "0s,5s,15s,30s,60s");

        options.fastWebhookRetries = false;
        assertThat(environment(StackService.WEBHOOKS)).doesNotContainKey("WEBHOOKS_DELIVERY_RETRYSCHEDULE");
    }

    @Test
    void extraSettingsComeLastAndWin() {
        options.serviceEnv("webhook-service", "WEBHOOK_ALLOW_PRIVATE_ADDRESSES", "false")
                .serviceEnv("webhook-service", "LOGGING_LEVEL_ROOT", "debug");

        Map<String, String> env = environment(StackService.WEBHOOKS);

        assertThat(env)
                .containsEntry("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", "false")
                .containsEntry("LOGGING_LEVEL_ROOT", "debug");
        assertThat(env.keySet()).last().isEqualTo("LOGGING_LEVEL_ROOT");
        assertThat(environment(StackService.GATEWAY)).doesNotContainKey("LOGGING_LEVEL_ROOT");
    }

    private Map<String, String> environment(StackService service) {
        return ServiceEnvironment.of(service, options, ports, secrets, postgres);
    }
}
