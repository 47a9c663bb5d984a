package dev.cryptopay.service.production;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

class ProductionSafetyTest {

    static final String SECRET = "Zq0b9Xr4Lm2Vt7Pk1Hs8Jd3Wf6Nc5Ya0Ue9Ri4Oq";
    static final String ADMIN = "Qm3Kv8Tz1Lp6Rd9Hs2Wf5Nc7";
    static final String KEY = "3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGho=";
    static final String WATCHER_SECRET = "Hd3Wf6Nc5Ya0Ue9Ri4OqZq0b9Xr4Lm2Vt7Pk1Hs8J";
    static final String WATCHER = "internal-auth.callers.chain-watcher.secret";

    /** payment-links-service: accepts the gateway and the chain watcher. */
    static MockEnvironment service() {
        return new MockEnvironment()
                .withProperty("spring.application.name", "payment-links-service")
                .withProperty("internal-auth.secret", SECRET)
                .withProperty(WATCHER, WATCHER_SECRET);
    }

    static MockEnvironment chainWatcher() {
        return new MockEnvironment()
                .withProperty("spring.application.name", "chain-watcher")
                .withProperty("chain-watcher.internal-auth.secret", WATCHER_SECRET);
    }

    static MockEnvironment gateway() {
        return new MockEnvironment()
                .withProperty("spring.application.name", "gateway")
                .withProperty("internal-auth.enabled", "false")
                .withProperty("gateway.internal-auth.secret", SECRET)
                .withProperty("gateway.admin.token", ADMIN)
                .withProperty("gateway.redis.enabled", "true");
    }

    static MockEnvironment webhooks() {
        return service()
                .withProperty("spring.application.name", "webhook-service")
                .withProperty("webhooks.secret-encryption-key", KEY)
                .withProperty("webhooks.delivery.allow-private-addresses", "false");
    }

    @Test
    void safeConfigurationsHaveNoProblems() {
        assertThat(ProductionSafety.problems(service())).isEmpty();
        assertThat(ProductionSafety.problems(gateway())).isEmpty();
        assertThat(ProductionSafety.problems(webhooks())).isEmpty();
        assertThat(ProductionSafety.problems(chainWatcher())).isEmpty();
        assertThat(ProductionSafety.problems(new MockEnvironment()
                        .withProperty("spring.application.name", "subscriptions-service")
                        .withProperty("internal-auth.callers.gateway.secret", SECRET)))
                .as("the gateway's secret in its long form")
                .isEmpty();
    }

    @Test
    void paymentLinksNeedsTheChainWatchersOwnSecret() {
        MockEnvironment missing = new MockEnvironment()
                .withProperty("spring.application.name", "payment-links-service")
                .withProperty("internal-auth.secret", SECRET);
        assertThat(ProductionSafety.problems(missing)).containsExactly(WATCHER + " is not set");
        assertThat(ProductionSafety.problems(service().withProperty(WATCHER, "${CHAIN_WATCHER_INTERNAL_AUTH_SECRET}")))
                .containsExactly(WATCHER + " is not set");
    }

    @Test
    void refusesADevelopmentOrShortSecretOfAnyCaller() {
        assertThat(ProductionSafety.problems(service()
                        .withProperty(WATCHER, "dev-only-chain-watcher-internal-auth-secret-not-for-production")))
                .containsExactly(WATCHER + " is a development value committed in the repository; generate a new one");
        assertThat(ProductionSafety.problems(service().withProperty(WATCHER, "Hd3Wf6Nc5Ya0Ue9Ri4Oq")))
                .containsExactly(WATCHER + " is shorter than 32 bytes");
        assertThat(ProductionSafety.problems(webhooks()
                        .withProperty(
                                "internal-auth.callers.payouts.secret", "test-payouts-secret-of-32-bytes-or-more")))
                .as("a caller no rule names is checked too")
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("internal-auth.callers.payouts.secret is a development value");
    }

    @Test
    void refusesTwoCallersSharingASecret() {
        assertThat(ProductionSafety.problems(service().withProperty(WATCHER, SECRET)))
                .containsExactly(
                        "internal-auth.secret is the same as " + WATCHER + ": every caller needs a secret of its own");
    }

    @Test
    void theChainWatcherNeedsItsSigningSecretAndNotTheGateways() {
        assertThat(ProductionSafety.problems(
                        new MockEnvironment().withProperty("spring.application.name", "chain-watcher")))
                .containsExactly("chain-watcher.internal-auth.secret is not set");
        assertThat(ProductionSafety.problems(chainWatcher()
                        .withProperty(
                                "chain-watcher.internal-auth.secret", "test-only-chain-watcher-secret-0123456789")))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("chain-watcher.internal-auth.secret is a development value");
    }

    @Test
    void refusesEveryDevelopmentSecretOfTheLocalStackAndTests() {
        for (String dev : DevelopmentSecrets.KNOWN) {
            assertThat(ProductionSafety.problems(service().withProperty("internal-auth.secret", dev)))
                    .as(dev)
                    .containsExactly("internal-auth.secret is a development value committed in the repository; "
                            + "generate a new one");
        }
    }

    @Test
    void refusesPlaceholderOfTheExampleFiles() {
        assertThat(ProductionSafety.problems(
                        service().withProperty("internal-auth.secret", "<same value in every service>")))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("internal-auth.secret is a development value");
    }

    @Test
    void refusesShortOrMissingInternalSecret() {
        assertThat(ProductionSafety.problems(service().withProperty("internal-auth.secret", "Zq0b9Xr4Lm2Vt7Pk1Hs8")))
                .containsExactly("internal-auth.secret is shorter than 32 bytes");
        MockEnvironment missing = new MockEnvironment()
                .withProperty("spring.application.name", "subscriptions-service")
                .withProperty("internal-auth.secret", "${INTERNAL_AUTH_SECRET}");
        assertThat(ProductionSafety.problems(missing)).containsExactly("internal-auth.secret is not set");
    }

    @Test
    void refusesInternalAuthOffOnAService() {
        assertThat(ProductionSafety.problems(service().withProperty("internal-auth.enabled", "false")))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("internal-auth.enabled=false");
    }

    @Test
    void refusesPrivateWebhookAddresses() {
        assertThat(ProductionSafety.problems(
                        webhooks().withProperty("webhooks.delivery.allow-private-addresses", "true")))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("webhooks.delivery.allow-private-addresses=true");
    }

    @Test
    void refusesDevelopmentOrMalformedEncryptionKey() {
        assertThat(ProductionSafety.problems(webhooks()
                        .withProperty(
                                "webhooks.secret-encryption-key", "ZGV2LW9ubHktTk9ULVNFQ1JFVC13ZWJob29rLWtleSE=")))
                .containsExactly("webhooks.secret-encryption-key is a development value committed in the repository; "
                        + "generate a new one");
        assertThat(ProductionSafety.problems(webhooks().withProperty("webhooks.secret-encryption-key", "c2hvcnQ=")))
                .containsExactly("webhooks.secret-encryption-key must be Base64 of 32 bytes");
    }

    @Test
    void refusesGatewayDevelopmentSecretsShortTokenAndNoRedis() {
        List<String> problems = ProductionSafety.problems(gateway()
                .withProperty("gateway.internal-auth.secret", "dev-only-internal-auth-secret-not-for-production")
                .withProperty("gateway.admin.token", "Qm3Kv8Tz1Lp6")
                .withProperty("gateway.redis.enabled", "false"));
        assertThat(problems).hasSize(3);
        assertThat(problems.get(0)).startsWith("gateway.internal-auth.secret is a development value");
        assertThat(problems.get(1)).isEqualTo("gateway.admin.token is shorter than 24 bytes");
        assertThat(problems.get(2)).startsWith("gateway.redis.enabled must be true");
        assertThat(ProductionSafety.problems(
                        gateway().withProperty("gateway.admin.token", "test-admin-token-0123456789-abcdefghij")))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("gateway.admin.token is a development value");
    }
}
