package dev.cryptopay.service.production;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

class ProductionSafetyTest {

    static final String SECRET = "Zq0b9Xr4Lm2Vt7Pk1Hs8Jd3Wf6Nc5Ya0Ue9Ri4Oq";
    static final String ADMIN = "Qm3Kv8Tz1Lp6Rd9Hs2Wf5Nc7";
    static final String KEY = "3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGho=";

    static MockEnvironment service() {
        return new MockEnvironment()
                .withProperty("spring.application.name", "payment-links-service")
                .withProperty("internal-auth.secret", SECRET);
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
        MockEnvironment missing = new MockEnvironment().withProperty("internal-auth.secret", "${INTERNAL_AUTH_SECRET}");
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
