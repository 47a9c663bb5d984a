package dev.cryptopay.deploychecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The internal callers' secrets: every service gets the secrets of the callers it signs or checks as, and no other
 * (chain-watcher never the gateway's), in docker-compose.yml and in the Kubernetes Secrets; one value per caller.
 */
class InternalSecretsTest {

    static final List<String> SERVICES = Repo.SERVICES;

    @Test
    void eachServiceGetsTheInternalSecretsItReadsAndNoOther() {
        Map<String, String> values = new HashMap<>();
        for (String service : SERVICES) {
            Set<String> reads = ServiceConfiguration.of(service).internalSecretVariables();
            Set<String> given = new TreeSet<>(ComposeFileTest.env(service).keySet());
            given.removeIf(key -> !key.endsWith("INTERNAL_AUTH_SECRET"));
            assertThat(given)
                    .as(service + ": the callers' secrets it signs or checks with")
                    .isEqualTo(reads);
            for (String variable : given) {
                String value = ComposeFileTest.env(service).get(variable);
                assertThat(value.getBytes()).as(variable + ": 32 bytes or more").hasSizeGreaterThanOrEqualTo(32);
                assertThat(values.putIfAbsent(variable, value))
                        .as(variable + " has one value in every service")
                        .isIn(null, value);
            }
        }
        assertThat(ServiceConfiguration.of("chain-watcher").internalSecretVariables())
                .as("chain-watcher holds its own secret, never the gateway's")
                .containsExactly("CHAIN_WATCHER_INTERNAL_AUTH_SECRET");
        assertThat(ServiceConfiguration.of("payment-links-service").internalSecretVariables())
                .as("payment-links-service takes the gateway's requests and the chain watcher's reports")
                .containsExactlyInAnyOrder("INTERNAL_AUTH_SECRET", "CHAIN_WATCHER_INTERNAL_AUTH_SECRET");
        assertThat(ServiceConfiguration.of("subscriptions-service").internalSecretVariables())
                .as("subscriptions-service takes the gateway's requests and the chain watcher's reports")
                .containsExactlyInAnyOrder("INTERNAL_AUTH_SECRET", "CHAIN_WATCHER_INTERNAL_AUTH_SECRET");
        assertThat(values.get("CHAIN_WATCHER_INTERNAL_AUTH_SECRET"))
                .as("every caller has a secret of its own")
                .isNotEqualTo(values.get("INTERNAL_AUTH_SECRET"));
    }

    @Test
    void eachKubernetesSecretHoldsTheInternalSecretsOfItsServiceAndNoOther() {
        for (String service : SERVICES) {
            Set<String> reads = ServiceConfiguration.of(service).internalSecretVariables();
            assertThat(reads).as(service + " signs or checks internal tokens").isNotEmpty();
            Set<String> keys = new TreeSet<>(KustomizeTest.secretKeys(service));
            keys.removeIf(key -> !key.endsWith("INTERNAL_AUTH_SECRET"));
            assertThat(keys).as(service + "-secrets").isEqualTo(reads);
        }
    }
}
