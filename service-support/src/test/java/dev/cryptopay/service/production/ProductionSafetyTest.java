package dev.cryptopay.service.production;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.keys.Ed25519KeyPairs;
import dev.cryptopay.auth.keys.GeneratedKeyPair;
import dev.cryptopay.auth.keys.SigningKey;
import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

class ProductionSafetyTest {

    // Key pairs made for this run: never committed, so not development values.
    static final GeneratedKeyPair GATEWAY_KEYS = Ed25519KeyPairs.generate(new SecureRandom());
    static final GeneratedKeyPair WATCHER_KEYS = Ed25519KeyPairs.generate(new SecureRandom());
    static final String GATEWAY_PUBLIC = publicKey(GATEWAY_KEYS);
    static final String WATCHER_PUBLIC = publicKey(WATCHER_KEYS);
    static final String ADMIN = "Qm3Kv8Tz1Lp6Rd9Hs2Wf5Nc7";
    static final String KEY = "3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGho=";
    static final String GATEWAY = "internal-auth.callers.gateway.public-keys";
    static final String WATCHER = "internal-auth.callers.chain-watcher.public-keys";
    static final String DEV_KEY_PROBLEM =
            " holds a development key committed in the repository; generate a new key pair";

    /** payment-links-service: accepts the gateway and the chain watcher. */
    static MockEnvironment service() {
        return new MockEnvironment()
                .withProperty("spring.application.name", "payment-links-service")
                .withProperty(GATEWAY, GATEWAY_PUBLIC)
                .withProperty(WATCHER, WATCHER_PUBLIC);
    }

    static MockEnvironment chainWatcher() {
        return new MockEnvironment()
                .withProperty("spring.application.name", "chain-watcher")
                .withProperty("chain-watcher.internal-auth.private-key", WATCHER_KEYS.privateKeyCompact());
    }

    static MockEnvironment gateway() {
        return new MockEnvironment()
                .withProperty("spring.application.name", "gateway")
                .withProperty("internal-auth.enabled", "false")
                .withProperty("gateway.internal-auth.private-key", GATEWAY_KEYS.privateKeyCompact())
                .withProperty("gateway.admin.token", ADMIN)
                .withProperty("gateway.redis.enabled", "true");
    }

    static MockEnvironment webhooks() {
        return new MockEnvironment()
                .withProperty("spring.application.name", "webhook-service")
                .withProperty(GATEWAY, GATEWAY_PUBLIC)
                .withProperty("webhooks.secret-encryption-key", KEY)
                .withProperty("webhooks.delivery.allow-private-addresses", "false");
    }

    @Test
    void safeConfigurationsHaveNoProblems() {
        assertThat(ProductionSafety.problems(service())).isEmpty();
        assertThat(ProductionSafety.problems(gateway())).isEmpty();
        assertThat(ProductionSafety.problems(webhooks())).isEmpty();
        assertThat(ProductionSafety.problems(chainWatcher())).isEmpty();
        GeneratedKeyPair next = Ed25519KeyPairs.generate(new SecureRandom());
        assertThat(ProductionSafety.problems(service().withProperty(GATEWAY, GATEWAY_PUBLIC + "," + publicKey(next))))
                .as("two keys of the gateway during a rotation")
                .isEmpty();
    }

    @Test
    void everyServiceNeedsTheGatewaysKeyAndPaymentLinksTheChainWatchers() {
        MockEnvironment noWatcher = new MockEnvironment()
                .withProperty("spring.application.name", "payment-links-service")
                .withProperty(GATEWAY, GATEWAY_PUBLIC);
        assertThat(ProductionSafety.problems(noWatcher)).containsExactly(WATCHER + " is not set");
        assertThat(ProductionSafety.problems(
                        service().withProperty(WATCHER, "${CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS}")))
                .containsExactly(WATCHER + " is not set");
        assertThat(ProductionSafety.problems(
                        new MockEnvironment().withProperty("spring.application.name", "subscriptions-service")))
                .containsExactly(GATEWAY + " is not set");
    }

    @Test
    void refusesACommittedKeyOfAnyCaller() {
        assertThat(ProductionSafety.problems(service()
                        .withProperty(WATCHER, "MCowBQYDK2VwAyEA2ed1Qjesi63U6lGmasDXv+lg8KpElvzP2Dka5jiU0II=")))
                .as("the chain watcher's key of docker-compose.yml")
                .containsExactly(WATCHER + DEV_KEY_PROBLEM);
        assertThat(ProductionSafety.problems(service()
                        .withProperty(
                                GATEWAY,
                                GATEWAY_PUBLIC + ",MCowBQYDK2VwAyEATOF/9u6dwrxmRybC5/uRmk5INQtjR1AvUgkzfAX9LE0=")))
                .as("a test key as the second key of a rotation")
                .containsExactly(GATEWAY + DEV_KEY_PROBLEM);
        assertThat(ProductionSafety.problems(webhooks()
                        .withProperty(
                                "internal-auth.callers.payouts.public-keys",
                                "MCowBQYDK2VwAyEAxdMawYB2W+7FimLpVb6hqFA7hQTsSlHWC7vj5u+8gUg=")))
                .as("a caller no rule names is checked too")
                .containsExactly("internal-auth.callers.payouts.public-keys" + DEV_KEY_PROBLEM);
    }

    @Test
    void theSignersNeedTheirOwnPrivateKeyNotACommittedOne() {
        assertThat(ProductionSafety.problems(
                        new MockEnvironment().withProperty("spring.application.name", "chain-watcher")))
                .containsExactly("chain-watcher.internal-auth.private-key is not set");
        assertThat(ProductionSafety.problems(chainWatcher()
                        .withProperty(
                                "chain-watcher.internal-auth.private-key",
                                "Ed25519:MC4CAQAwBQYDK2VwBCIEIIsz1q10CwOC4Qipx3sRMBIKE5vUeKT2DwuIdQDHkozC")))
                .containsExactly("chain-watcher.internal-auth.private-key is a development key committed in the "
                        + "repository; generate a new key pair");
        assertThat(ProductionSafety.problems(gateway().withProperty("gateway.internal-auth.private-key", "")))
                .containsExactly("gateway.internal-auth.private-key is not set");
    }

    @Test
    void refusesEveryCommittedKeyOfTheLocalStackAndTests() {
        for (String dev : DevelopmentSecrets.KNOWN) {
            assertThat(ProductionSafety.problems(service().withProperty(GATEWAY, dev)))
                    .as(dev)
                    .containsExactly(GATEWAY + DEV_KEY_PROBLEM);
        }
    }

    @Test
    void refusesPlaceholderOfTheExampleFiles() {
        assertThat(ProductionSafety.problems(
                        service().withProperty(GATEWAY, "<the gateway's public key: openssl pkey -pubout>")))
                .containsExactly(GATEWAY + DEV_KEY_PROBLEM);
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
    void refusesGatewayDevelopmentKeyShortTokenAndNoRedis() {
        List<String> problems = ProductionSafety.problems(gateway()
                .withProperty(
                        "gateway.internal-auth.private-key",
                        "Ed25519:MC4CAQAwBQYDK2VwBCIEIAiDSnEHJ462rL1uPq1uMk1mcrKmbahJKrTpILuAFnh+")
                .withProperty("gateway.admin.token", "Qm3Kv8Tz1Lp6")
                .withProperty("gateway.redis.enabled", "false"));
        assertThat(problems).hasSize(3);
        assertThat(problems.get(0)).startsWith("gateway.internal-auth.private-key is a development key");
        assertThat(problems.get(1)).isEqualTo("gateway.admin.token is shorter than 24 bytes");
        assertThat(problems.get(2)).startsWith("gateway.redis.enabled must be true");
        assertThat(ProductionSafety.problems(
                        gateway().withProperty("gateway.admin.token", "test-admin-token-0123456789-abcdefghij")))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .startsWith("gateway.admin.token is a development value");
    }

    private static String publicKey(GeneratedKeyPair pair) {
        return SigningKey.parse(pair.privateKeyCompact()).verificationKey().toBase64();
    }
}
