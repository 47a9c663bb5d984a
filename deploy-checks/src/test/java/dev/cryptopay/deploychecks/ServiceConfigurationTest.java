package dev.cryptopay.deploychecks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The checker of environment variables itself: it must accept what services read and refuse anything else. */
class ServiceConfigurationTest {

    @Test
    void readsPlaceholdersAndRecordComponentsOfTheModuleAndServiceSupport() {
        ServiceConfiguration webhooks = ServiceConfiguration.of("webhook-service");

        assertThat(webhooks.placeholders)
                .containsKeys(
                        "PORT",
                        "GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS",
                        "DATABASE_R2DBC_URL",
                        "WEBHOOK_SECRET_ENCRYPTION_KEY",
                        "WEBHOOK_ALLOW_PRIVATE_ADDRESSES");
        assertThat(webhooks.requiredVariables())
                .containsExactly("GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS", "WEBHOOK_SECRET_ENCRYPTION_KEY");
        assertThat(webhooks.recordProperties)
                .contains(
                        "webhooks.secret-encryption-key",
                        "webhooks.delivery.retry-schedule",
                        "webhooks.delivery.allow-private-addresses",
                        // from service-support, which webhook-service depends on
                        "internal-auth.max-age",
                        "outbox.relay-enabled");
        assertThat(ServiceConfiguration.of("gateway").recordProperties)
                .contains("gateway.admin.host", "gateway.rate-limit.limits.payment-links-write", "gateway.redis.uri");
    }

    @Test
    void judgesEnvironmentVariablesWithSpringBootsRelaxedBinding() {
        ServiceConfiguration webhooks = ServiceConfiguration.of("webhook-service");
        ServiceConfiguration gateway = ServiceConfiguration.of("gateway");

        assertThat(webhooks.explain("KAFKA_BOOTSTRAP_SERVERS")).startsWith("placeholder");
        assertThat(webhooks.explain("WEBHOOKS_DELIVERY_RETRYSCHEDULE")).contains("webhooks.delivery.retry-schedule");
        assertThat(webhooks.explain("WEBHOOKS_DELIVERY_RETRY_SCHEDULE"))
                .as("legacy form, also bound by Spring Boot")
                .contains("webhooks.delivery.retry-schedule");
        assertThat(gateway.explain("GATEWAY_ADMIN_HOST")).contains("gateway.admin.host");
        assertThat(gateway.explain("MANAGEMENT_SERVER_PORT")).contains("management.server.port");
        assertThat(gateway.explain("GATEWAY_RATELIMIT_LIMITS_PAYMENTLINKSWRITE"))
                .contains("gateway.rate-limit.limits.payment-links-write");

        assertThat(webhooks.explain("WEBHOOKS_DELIVERY_RETRIES"))
                .as("no such property")
                .isNull();
        assertThat(webhooks.explain("GATEWAY_ADMIN_HOST"))
                .as("another module's property")
                .isNull();
        assertThat(ServiceConfiguration.of("subscriptions-service").explain("WEBHOOK_SECRET_ENCRYPTION_KEY"))
                .as("another module's placeholder")
                .isNull();
    }

    @Test
    void subscriptionsServiceReadsWhatPaymentLinksServiceReadsAndItsChainSettings() {
        ServiceConfiguration subscriptions = ServiceConfiguration.of("subscriptions-service");
        ServiceConfiguration paymentLinks = ServiceConfiguration.of("payment-links-service");

        assertThat(subscriptions.placeholders)
                .containsKeys(
                        "PORT",
                        "GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS",
                        "CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS",
                        "DATABASE_R2DBC_URL",
                        "DATABASE_JDBC_URL",
                        "DATABASE_USER",
                        "DATABASE_PASSWORD",
                        "KAFKA_BOOTSTRAP_SERVERS",
                        "CHECKOUT_URL",
                        "PUBLIC_API_URL",
                        "SUBSCRIPTIONS_DEFAULT_TEST_CHAIN_ID",
                        "SUBSCRIPTIONS_DEFAULT_LIVE_CHAIN_ID",
                        "SUBSCRIPTIONS_CONTRACT_31337",
                        "SUBSCRIPTIONS_CONTRACT_11155111",
                        "SUBSCRIPTIONS_CONTRACT_1")
                .as("both take the chain watcher's reports")
                .containsKeys(paymentLinks.placeholders.keySet().toArray(String[]::new));
        assertThat(paymentLinks.requiredVariables())
                .containsExactly("CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS", "GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS");
        assertThat(subscriptions.requiredVariables())
                .containsExactly("CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS", "GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS");
        assertThat(subscriptions.explain("GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS")).startsWith("placeholder");
        assertThat(subscriptions.placeholderProperties)
                .containsEntry("GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS", "internal-auth.callers.gateway.public-keys")
                .containsEntry(
                        "CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS", "internal-auth.callers.chain-watcher.public-keys");
        assertThat(subscriptions.databaseVariables())
                .containsExactly("DATABASE_JDBC_URL", "DATABASE_PASSWORD", "DATABASE_R2DBC_URL", "DATABASE_USER");
        assertThat(subscriptions.loopbackDefaults())
                .containsExactly("DATABASE_JDBC_URL", "DATABASE_R2DBC_URL", "KAFKA_BOOTSTRAP_SERVERS");
        assertThat(subscriptions.recordProperties)
                .as("from service-support, which subscriptions-service depends on")
                .contains("internal-auth.max-age", "outbox.relay-enabled");
    }

    @Test
    void chainWatcherReadsItsSettingsAndItsNetworksListByIndex() {
        ServiceConfiguration watcher = ServiceConfiguration.of("chain-watcher");

        assertThat(watcher.placeholders)
                .doesNotContainKeys("GATEWAY_INTERNAL_AUTH_PRIVATE_KEY", "GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS")
                .containsKeys(
                        "PORT",
                        "CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY",
                        "DATABASE_JDBC_URL",
                        "KAFKA_BOOTSTRAP_SERVERS",
                        "PAYMENT_LINKS_URL",
                        "SUBSCRIPTIONS_URL",
                        "SUBSCRIPTIONS_CONTRACT_31337",
                        "DEV_CHAIN_RPC_URL",
                        "DEV_CHAIN_CONFIRMATIONS");
        assertThat(watcher.requiredVariables()).containsExactly("CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY");
        assertThat(watcher.placeholderProperties)
                .containsEntry("CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY", "chain-watcher.internal-auth.private-key");
        assertThat(watcher.recordProperties).contains("chain-watcher.internal-auth.private-key");
        assertThat(watcher.placeholderProperties)
                .containsEntry("DEV_CHAIN_RPC_URL", "chain-watcher.networks[0].rpc-url")
                .containsEntry("PAYMENT_LINKS_URL", "chain-watcher.payment-links-url");
        assertThat(watcher.explain("CHAINWATCHER_NETWORKS_0_RPCURL")).contains("chain-watcher.networks[0].rpc-url");
        assertThat(watcher.explain("CHAINWATCHER_NETWORKS_2_CHAINID")).contains("chain-watcher.networks[2].chain-id");
        assertThat(watcher.explain("CHAINWATCHER_NETWORKS_0_POLLINTERVAL"))
                .contains("chain-watcher.networks[0].poll-interval");
        assertThat(watcher.explain("CHAIN_WATCHER_NETWORKS_1_RPC_URL"))
                .as("legacy form, also bound by Spring Boot")
                .contains("chain-watcher.networks[1].rpc-url");
        assertThat(watcher.explain("CHAINWATCHER_NETWORKS_0_RPC"))
                .as("no such field")
                .isNull();
        assertThat(watcher.explain("CHAINWATCHER_NETWORKS_10_NAME"))
                .as("indexes 0 to " + (ServiceConfiguration.LIST_INDEXES - 1))
                .isNull();
        assertThat(watcher.loopbackDefaultsLeftWith(java.util.Set.of("CHAINWATCHER_NETWORKS_0_NAME")))
                .as("the networks list of the environment replaces application.yml's, and its DEV_CHAIN_RPC_URL")
                .containsExactly(
                        "DATABASE_JDBC_URL",
                        "DATABASE_R2DBC_URL",
                        "KAFKA_BOOTSTRAP_SERVERS",
                        "PAYMENT_LINKS_URL",
                        "SUBSCRIPTIONS_URL");
    }

    @Test
    void notificationServiceReadsItsRelayItsSenderAndTheGatewaysKey() {
        ServiceConfiguration notifications = ServiceConfiguration.of("notification-service");

        assertThat(notifications.placeholders)
                .containsKeys(
                        "PORT",
                        "GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS",
                        "DATABASE_R2DBC_URL",
                        "KAFKA_BOOTSTRAP_SERVERS",
                        "SMTP_HOST",
                        "SMTP_PORT",
                        "SMTP_USERNAME",
                        "SMTP_PASSWORD",
                        "SMTP_AUTH",
                        "SMTP_STARTTLS",
                        "NOTIFICATIONS_FROM_ADDRESS",
                        "NOTIFICATIONS_PLATFORM_NAME");
        assertThat(notifications.requiredVariables()).containsExactly("GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS");
        assertThat(notifications.loopbackDefaults())
                .as("its database, Kafka and the relay default to this machine")
                .containsExactly("DATABASE_JDBC_URL", "DATABASE_R2DBC_URL", "KAFKA_BOOTSTRAP_SERVERS", "SMTP_HOST");
        assertThat(notifications.placeholderProperties)
                .containsEntry("SMTP_HOST", "spring.mail.host")
                .containsEntry("SMTP_STARTTLS", "spring.mail.properties.mail.smtp.starttls.enable");
        assertThat(notifications.explain("NOTIFICATIONS_SENDING_RETRYDELAYS"))
                .contains("notifications.sending.retry-delays");
        assertThat(notifications.explain("SPRING_KAFKA_SECURITY_PROTOCOL"))
                .as("it reads the *.events topics")
                .contains("spring.kafka.security.protocol");
        assertThat(notifications.explain("WEBHOOK_SECRET_ENCRYPTION_KEY"))
                .as("another module's placeholder")
                .isNull();
    }

    @Test
    void tellsTheInternalCallersPrivateKeysFromTheirPublicKeys() {
        ServiceConfiguration gateway = ServiceConfiguration.of("gateway");
        ServiceConfiguration paymentLinks = ServiceConfiguration.of("payment-links-service");

        assertThat(gateway.internalPrivateKeyVariables()).containsExactly("GATEWAY_INTERNAL_AUTH_PRIVATE_KEY");
        assertThat(gateway.internalPublicKeyVariables()).isEmpty();
        assertThat(gateway.placeholderProperties)
                .containsEntry("GATEWAY_INTERNAL_AUTH_PRIVATE_KEY", "gateway.internal-auth.private-key");
        assertThat(paymentLinks.internalPrivateKeyVariables()).isEmpty();
        assertThat(paymentLinks.internalPublicKeyVariables())
                .containsExactly("CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS", "GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS");
        assertThat(ServiceConfiguration.caller("CHAIN_WATCHER_INTERNAL_AUTH_PRIVATE_KEY"))
                .isEqualTo("CHAIN_WATCHER");
        assertThat(ServiceConfiguration.caller("GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS"))
                .isEqualTo("GATEWAY");
    }

    @Test
    void findsDatabaseSettingsAndLoopbackDefaults() {
        ServiceConfiguration gateway = ServiceConfiguration.of("gateway");

        assertThat(gateway.databaseVariables())
                .containsExactly(
                        "GATEWAY_DB_JDBC_URL", "GATEWAY_DB_PASSWORD", "GATEWAY_DB_R2DBC_URL", "GATEWAY_DB_USER");
        assertThat(gateway.loopbackDefaults())
                .contains(
                        "GATEWAY_DB_R2DBC_URL",
                        "PAYMENT_LINKS_URL",
                        "SUBSCRIPTIONS_URL",
                        "GATEWAY_REDIS_URI",
                        "KAFKA_BOOTSTRAP_SERVERS")
                .doesNotContain("PORT", "GATEWAY_ADMIN_PORT", "GATEWAY_DB_USER");
        assertThat(ServiceConfiguration.LOOPBACK
                        .matcher("r2dbc:postgresql://127.0.0.1:5432/x")
                        .find())
                .isTrue();
        assertThat(ServiceConfiguration.LOOPBACK.matcher("http://localhost").find())
                .isTrue();
        assertThat(ServiceConfiguration.LOOPBACK.matcher("kafka:9092").find()).isFalse();
        assertThat(ServiceConfiguration.LOOPBACK
                        .matcher("https://localhost.example.com")
                        .find())
                .isFalse();
    }

    @Test
    void theSpringBootPropertiesWeAllowExistInSpringBootsMetadata() {
        assertThat(KafkaSecuritySettings.springBootMetadataProperties())
                .containsAll(ServiceConfiguration.SPRING_BOOT_PROPERTIES)
                .containsAll(KafkaSecuritySettings.PROPERTIES);
    }

    @Test
    void acceptsKafkaSecuritySettingsOnlyInServicesThatUseKafka() {
        ServiceConfiguration paymentLinks = ServiceConfiguration.of("payment-links-service");
        assertThat(paymentLinks.explain("SPRING_KAFKA_SECURITY_PROTOCOL")).contains("spring.kafka.security.protocol");
        assertThat(paymentLinks.explain("SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG"))
                .contains("spring.kafka.properties");
        assertThat(paymentLinks.explain("SPRING_KAFKA_SSL_TRUSTSTORECERTIFICATES"))
                .contains("spring.kafka.ssl.trust-store-certificates");
        assertThat(paymentLinks.explain("SPRING_KAFKA_SSL_TRUSTSTORE"))
                .as("no such property")
                .isNull();
        ServiceConfiguration gateway = ServiceConfiguration.of("gateway");
        assertThat(gateway.explain("SPRING_KAFKA_SECURITY_PROTOCOL"))
                .as("the gateway produces gateway.events")
                .contains("spring.kafka.security.protocol");
        gateway.placeholders.remove("KAFKA_BOOTSTRAP_SERVERS");
        assertThat(gateway.usesKafka()).isFalse();
        assertThat(gateway.explain("SPRING_KAFKA_SECURITY_PROTOCOL"))
                .as("a module that does not read KAFKA_BOOTSTRAP_SERVERS uses no Kafka")
                .isNull();
    }

    @Test
    void recordParsingSurvivesCommentsStringsAndAnnotations() {
        String source = """
                @ConfigurationProperties("demo")
                public record Demo(
                        /** Paths like "/actuator/**" must not open a comment. */
                        @NotNull @DefaultValue("/actuator/**") List<String> openPaths,
                        @DefaultValue({"0s", "5m"}) List<Duration> retrySchedule, // trailing comment
                        Map<String, Integer> limits,
                        @Valid @DefaultValue Nested nested) {
                    public record Nested(@Min(1) int batchSize) {
                    }
                }
                """;
        assertThat(ServiceConfiguration.recordProperties(source))
                .containsExactlyInAnyOrder(
                        "demo.open-paths",
                        "demo.retry-schedule",
                        "demo.limits",
                        "demo.nested",
                        "demo.nested.batch-size");
    }
}
