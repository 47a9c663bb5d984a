package dev.cryptopay.deploychecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * notification-service in the clusters: it reaches the SMTP relay the ConfigMap names, on a port its NetworkPolicy
 * opens, with STARTTLS required and credentials that only the Secret holds, and each environment sends from an address
 * of its own domain rather than application.yml's local one.
 */
class NotificationKustomizeTest {

    static final String SERVICE = "notification-service";
    static final List<String> ENVIRONMENTS = KustomizeTest.ENVIRONMENTS;

    /** The ConfigMap an environment renders: the base's literals, the overlay's merged over them. */
    static Map<String, String> config(String environment) {
        Map<String, String> config =
                new LinkedHashMap<>(KustomizeTest.literals(KustomizeTest.base(SERVICE), SERVICE + "-config"));
        config.putAll(KustomizeTest.literals(
                KustomizeTest.kustomization(KustomizeTest.K8S.resolve("overlays/" + environment + "/" + SERVICE)),
                SERVICE + "-config"));
        return config;
    }

    @ParameterizedTest
    @FieldSource("ENVIRONMENTS")
    void theRelayIsReachedOnAPortThePolicyOpensWithStarttlsRequiredAndAuthentication(String environment) {
        Map<String, String> config = config(environment);
        assertThat(config).containsKeys("SMTP_HOST", "SMTP_PORT");
        assertThat(NetworkPolicyTest.egress(SERVICE))
                .as("the NetworkPolicy lets SMTP_PORT out")
                .contains("any " + config.get("SMTP_PORT") + "/TCP");
        assertThat(config)
                .as(environment + ": credentials and messages never cross the network in clear")
                .containsEntry("SMTP_STARTTLS", "true")
                .containsEntry("SMTP_AUTH", "true");
    }

    @Test
    void theRelaysCredentialsAreInTheSecretOnly() {
        Set<String> credentials = Set.of("SMTP_USERNAME", "SMTP_PASSWORD");
        assertThat(KustomizeTest.secretKeys(SERVICE)).containsAll(credentials);
        for (String environment : ENVIRONMENTS) {
            assertThat(config(environment).keySet())
                    .as(environment + ": " + SERVICE + "-config holds no credential")
                    .doesNotContainAnyElementsOf(credentials);
        }
        assertThat(ServiceConfiguration.of(SERVICE).placeholders)
                .as("the names application.yml reads")
                .containsKeys(credentials.toArray(String[]::new));
    }

    @ParameterizedTest
    @FieldSource("ENVIRONMENTS")
    void eachEnvironmentSendsFromAnAddressOfItsOwn(String environment) {
        String local = ServiceConfiguration.of(SERVICE).defaults.get("NOTIFICATIONS_FROM_ADDRESS");
        assertThat(local).as("application.yml's sender, for the local stacks").endsWith(".local");
        assertThat(KustomizeTest.literals(KustomizeTest.base(SERVICE), SERVICE + "-config"))
                .as("the base leaves the sender to the environment")
                .doesNotContainKey("NOTIFICATIONS_FROM_ADDRESS");
        String from = config(environment).get("NOTIFICATIONS_FROM_ADDRESS");
        assertThat(from)
                .as(environment + ": a relay refuses, or spam filters drop, mail from a .local domain")
                .isNotNull()
                .matches("[a-z0-9.-]+@[a-z0-9-]+(\\.[a-z0-9-]+)+")
                .doesNotEndWith(".local");
        for (String other : ENVIRONMENTS) {
            if (!other.equals(environment)) {
                assertThat(config(other).get("NOTIFICATIONS_FROM_ADDRESS"))
                        .as("the sandbox's test-mode e-mails never come from production's sender")
                        .isNotEqualTo(from);
            }
        }
    }
}
