package dev.cryptopay.deploychecks;

import static dev.cryptopay.deploychecks.Repo.at;
import static dev.cryptopay.deploychecks.Repo.maps;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * chain-watcher in the clusters: the networks each environment watches come from its ConfigMap (replacing the local
 * dev chain of application.yml) with the RPC URLs in the Secret, and every name is one payment-links-service gives
 * links; reports reach payment-links-service through its Service.
 */
class ChainWatcherKustomizeTest {

    static final String SERVICE = "chain-watcher";
    static final java.util.List<String> ENVIRONMENTS = KustomizeTest.ENVIRONMENTS;
    private static final Pattern NETWORK_KEY = Pattern.compile("CHAINWATCHER_NETWORKS_(\\d+)_([A-Z]+)");

    /** The ConfigMap an environment renders: the base's literals, the overlay's merged over them. */
    static Map<String, String> config(String environment) {
        Map<String, String> config =
                new LinkedHashMap<>(KustomizeTest.literals(KustomizeTest.base(SERVICE), SERVICE + "-config"));
        config.putAll(KustomizeTest.literals(
                KustomizeTest.kustomization(KustomizeTest.K8S.resolve("overlays/" + environment + "/" + SERVICE)),
                SERVICE + "-config"));
        return config;
    }

    /** index → field → value of the CHAINWATCHER_NETWORKS_&lt;index&gt;_&lt;FIELD&gt; keys. */
    static Map<Integer, Map<String, String>> networks(Map<String, String> config) {
        Map<Integer, Map<String, String>> networks = new TreeMap<>();
        config.forEach((key, value) -> {
            Matcher matcher = NETWORK_KEY.matcher(key);
            if (matcher.matches()) {
                networks.computeIfAbsent(Integer.parseInt(matcher.group(1)), i -> new TreeMap<>())
                        .put(matcher.group(2), value);
            }
        });
        return networks;
    }

    /** network name → chain id of payment-links-service's reference data (db/migration/V1__currencies.sql). */
    static Map<String, Long> paymentLinksNetworks() {
        Map<String, Long> networks = new TreeMap<>();
        Matcher row = Pattern.compile("\\('[A-Z0-9]+', '([^']+)', (\\d+), \\d+\\)")
                .matcher(Repo.read("payment-links-service/src/main/resources/db/migration/V1__currencies.sql"));
        while (row.find()) {
            networks.put(row.group(1), Long.parseLong(row.group(2)));
        }
        assertThat(networks).as("networks of the reference data").isNotEmpty();
        return networks;
    }

    @ParameterizedTest
    @FieldSource("ENVIRONMENTS")
    void everyNetworkHasANameAChainIdAndOnlyTheSecretHoldsRpcUrls(String environment) {
        Map<Integer, Map<String, String>> networks = networks(config(environment));

        assertThat(networks).as(environment + " watches some network").isNotEmpty();
        assertThat(networks.keySet())
                .as("indexes from 0 without gaps (Spring Boot binds a list)")
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, networks.size())
                        .boxed()
                        .toList());
        networks.forEach((index, fields) -> {
            assertThat(fields).as(environment + " network " + index).containsKeys("NAME", "CHAINID");
            assertThat(fields).as("RPC URLs often carry API keys: Secret only").doesNotContainKey("RPCURL");
            assertThat(Long.parseLong(fields.get("CHAINID"))).isPositive();
        });
        assertThat(KustomizeTest.secretKeys(SERVICE)).contains("CHAINWATCHER_NETWORKS_0_RPCURL");
        for (String key : KustomizeTest.secretKeys(SERVICE)) {
            Matcher matcher = NETWORK_KEY.matcher(key);
            if (matcher.matches()) {
                assertThat(networks)
                        .as(key + " belongs to a network the ConfigMap names")
                        .containsKey(Integer.parseInt(matcher.group(1)));
            }
        }
    }

    @Test
    void productionWatchesNetworksUnderTheNamesAndChainIdsPaymentLinksServiceGivesLinks() {
        Map<String, Long> known = paymentLinksNetworks();
        networks(config("production"))
                .forEach((index, fields) -> assertThat(known)
                        .as("production network " + index + ": a report names the link's network exactly")
                        .containsEntry(fields.get("NAME"), Long.parseLong(fields.get("CHAINID"))));
    }

    @Test
    void theSandboxWatchesSepolia() {
        assertThat(networks(config("sandbox")))
                .containsOnlyKeys(0)
                .hasEntrySatisfying(
                        0,
                        fields -> assertThat(fields)
                                .containsEntry("NAME", "Sepolia")
                                .containsEntry("CHAINID", "11155111"));
    }

    @Test
    void reportsReachPaymentLinksServiceThroughItsService() {
        Map<String, Object> port = maps(at(
                        KustomizeTest.object("payment-links-service", "Service", "payment-links-service"),
                        "spec",
                        "ports"))
                .get(0);
        assertThat(KustomizeTest.literals(KustomizeTest.base(SERVICE), SERVICE + "-config"))
                .containsEntry("PAYMENT_LINKS_URL", "http://payment-links-service:" + port.get("port"));
    }

    @Test
    void theNetworksOfTheConfigMapReplaceTheDevChainOfApplicationYml() {
        ServiceConfiguration watcher = ServiceConfiguration.of(SERVICE);
        for (String environment : ENVIRONMENTS) {
            Map<String, String> config = config(environment);
            config.keySet().stream()
                    .filter(key -> key.startsWith("CHAINWATCHER_NETWORKS_"))
                    .forEach(key -> assertThat(watcher.boundRecordProperty(key))
                            .as(environment + " " + key)
                            .startsWith("chain-watcher.networks["));
            assertThat(watcher.loopbackDefaultsLeftWith(config.keySet()))
                    .as("DEV_CHAIN_RPC_URL sits in the list the ConfigMap replaces, so it is not read")
                    .doesNotContain("DEV_CHAIN_RPC_URL");
        }
        assertThat(watcher.loopbackDefaults()).contains("DEV_CHAIN_RPC_URL", "PAYMENT_LINKS_URL");
        assertThat(watcher.loopbackDefaultsLeftWith(java.util.Set.of())).contains("DEV_CHAIN_RPC_URL");
    }
}
