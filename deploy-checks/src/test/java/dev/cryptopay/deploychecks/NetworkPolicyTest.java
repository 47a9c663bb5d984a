package dev.cryptopay.deploychecks;

import static dev.cryptopay.deploychecks.Repo.at;
import static dev.cryptopay.deploychecks.Repo.list;
import static dev.cryptopay.deploychecks.Repo.map;
import static dev.cryptopay.deploychecks.Repo.maps;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * deploy/k8s NetworkPolicies: every service's pods are isolated in both directions, and what is open is exactly the
 * paths the configuration uses (the gateway's upstream URLs, chain-watcher's payment-links URL, the scrape port of
 * each pod's Prometheus annotations) and the documented infrastructure: DNS, PostgreSQL, Kafka, Redis, an SMTP relay
 * (any address: a provider's or one inside the network) for the service that sends e-mail, and the internet (public
 * addresses only) for webhook deliveries and chain RPC.
 */
class NetworkPolicyTest {

    static final List<String> SERVICES = Repo.SERVICES;

    /** Ranges that must never count as "the internet": private, CGNAT, link-local (cloud metadata), loopback. */
    static final Set<String> INTERNAL_V4 =
            Set.of("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16", "127.0.0.0/8");

    static final Set<String> INTERNAL_V6 = Set.of("fc00::/7", "fe80::/10", "::1/128");

    /** SMTP: plain (25), TLS from the start (465), submission with STARTTLS (587). */
    static final Set<String> SMTP = Set.of("any 25/TCP", "any 465/TCP", "any 587/TCP");

    static Map<String, Object> policy(String service) {
        return KustomizeTest.object(service, "NetworkPolicy", service);
    }

    /** Ingress of a service as {@code peer -> port/protocol} strings. */
    static Set<String> ingress(String service) {
        return paths(service, "ingress", "from");
    }

    static Set<String> egress(String service) {
        return paths(service, "egress", "to");
    }

    private static Set<String> paths(String service, String direction, String peersKey) {
        Set<String> paths = new TreeSet<>();
        for (Map<String, Object> rule : maps(at(policy(service), "spec", direction))) {
            List<Map<String, Object>> peers = maps(rule.get(peersKey));
            List<Map<String, Object>> ports = maps(rule.get("ports"));
            assertThat(ports)
                    .as(service + " " + direction + ": every rule names its ports")
                    .isNotEmpty();
            for (String peer : peers.isEmpty()
                    ? List.of("any")
                    : peers.stream().map(p -> peer(service, p)).toList()) {
                for (Map<String, Object> port : ports) {
                    assertThat(port.get("port"))
                            .as(service + ": numeric ports only, so they can be checked")
                            .isInstanceOf(Integer.class);
                    paths.add(peer + " " + port.get("port") + "/" + port.getOrDefault("protocol", "TCP"));
                }
            }
        }
        return paths;
    }

    /** {@code pod:<service>}, {@code prometheus} or {@code internet}; anything else fails the test. */
    private static String peer(String service, Map<String, Object> peer) {
        Object name = at(peer, "podSelector", "matchLabels", "app.kubernetes.io/name");
        if (peer.containsKey("ipBlock")) {
            assertThat(peer).as(service + ": an ipBlock alone").hasSize(1);
            return "internet";
        }
        if (peer.containsKey("namespaceSelector")) {
            assertThat(name)
                    .as(service + ": a namespaceSelector only for Prometheus")
                    .isEqualTo("prometheus");
            return "prometheus";
        }
        if (name != null && peer.size() == 1) {
            assertThat(SERVICES).as(service + ": a pod peer is one of ours").contains(String.valueOf(name));
            return "pod:" + name;
        }
        return fail(service + ": unexpected peer " + peer);
    }

    /** {@code caller -> callee:port} of every internal HTTP call the ConfigMaps configure. */
    static Set<String> configuredCalls() {
        Set<String> calls = new TreeSet<>();
        for (String caller : SERVICES) {
            KustomizeTest.literals(KustomizeTest.base(caller), caller + "-config")
                    .forEach((key, value) -> {
                        if (key.endsWith("_URL") && value.startsWith("http://")) {
                            URI uri = URI.create(value);
                            assertThat(SERVICES).as(caller + " " + key).contains(uri.getHost());
                            calls.add(caller + " -> " + uri.getHost() + ":" + uri.getPort());
                        }
                    });
        }
        return calls;
    }

    static int scrapePort(String service) {
        Map<String, Object> annotations = map(at(
                KustomizeTest.object(service, "Deployment", service), "spec", "template", "metadata", "annotations"));
        return Integer.parseInt(String.valueOf(annotations.get("prometheus.io/port")));
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void everyServiceIsSelectedByItsOwnPolicyIsolatingItBothWays(String service) {
        assertThat(list(KustomizeTest.base(service).get("resources"))).contains("networkpolicy.yaml");
        Map<String, Object> policy = policy(service);
        assertThat(policy.get("apiVersion")).isEqualTo("networking.k8s.io/v1");
        Map<String, Object> podLabels =
                map(at(KustomizeTest.object(service, "Deployment", service), "spec", "template", "metadata", "labels"));
        Map<String, Object> selector = map(at(policy, "spec", "podSelector", "matchLabels"));
        assertThat(selector)
                .as(service + ": the policy selects the Deployment's pods, and only them")
                .containsEntry("app.kubernetes.io/name", service)
                .allSatisfy((key, value) -> assertThat(podLabels).containsEntry(key, value));
        assertThat(list(at(policy, "spec", "policyTypes"))).containsExactlyInAnyOrder("Ingress", "Egress");
    }

    @Test
    void everyDeploymentInEveryBaseIsSelected() {
        for (String service : SERVICES) {
            for (Object resource : list(KustomizeTest.base(service).get("resources"))) {
                for (Map<String, Object> document :
                        Repo.yamlDocuments(KustomizeTest.K8S.resolve("base/" + service + "/" + resource))) {
                    if ("Deployment".equals(document.get("kind"))) {
                        Map<String, Object> labels = map(at(document, "spec", "template", "metadata", "labels"));
                        assertThat(SERVICES.stream()
                                        .map(NetworkPolicyTest::policy)
                                        .anyMatch(policy ->
                                                map(at(policy, "spec", "podSelector", "matchLabels"))
                                                        .entrySet()
                                                        .stream()
                                                        .allMatch(e ->
                                                                e.getValue().equals(labels.get(e.getKey())))))
                                .as("Deployment " + at(document, "metadata", "name") + " is isolated by a policy")
                                .isTrue();
                    }
                }
            }
        }
    }

    @Test
    void ingressIsExactlyTheConfiguredCallsPrometheusAndTheMerchantPort() {
        Set<String> expected = new TreeSet<>();
        configuredCalls().forEach(call -> {
            String caller = call.substring(0, call.indexOf(" -> "));
            String callee = call.substring(call.indexOf(" -> ") + 4, call.indexOf(':'));
            expected.add(callee + " <- pod:" + caller + " " + call.substring(call.indexOf(':') + 1) + "/TCP");
        });
        for (String service : SERVICES) {
            expected.add(service + " <- prometheus " + scrapePort(service) + "/TCP");
        }
        expected.add("gateway <- any " + KustomizeTest.containerPorts("gateway").get("http") + "/TCP");

        Set<String> actual = new TreeSet<>();
        SERVICES.forEach(service -> ingress(service).forEach(path -> actual.add(service + " <- " + path)));
        assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(configuredCalls())
                .as("the documented internal paths")
                .containsExactlyInAnyOrder(
                        "gateway -> payment-links-service:8081",
                        "gateway -> subscriptions-service:8082",
                        "gateway -> webhook-service:8083",
                        "gateway -> notification-service:8085",
                        "chain-watcher -> payment-links-service:8081",
                        "chain-watcher -> subscriptions-service:8082");
        assertThat(ingress("gateway"))
                .as("the admin port is reached with kubectl port-forward only")
                .noneMatch(path -> path.contains(
                        " " + KustomizeTest.containerPorts("gateway").get("admin") + "/"));
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void egressIsExactlyWhatTheServiceTalksTo(String service) {
        Set<String> expected = new TreeSet<>(Set.of("any 53/UDP", "any 53/TCP", "any 5432/TCP"));
        Map<String, String> config = KustomizeTest.literals(KustomizeTest.base(service), service + "-config");
        if (config.containsKey("KAFKA_BOOTSTRAP_SERVERS")) {
            expected.addAll(Set.of("any 9092/TCP", "any 9093/TCP"));
        }
        if (ServiceConfiguration.of(service).placeholders.containsKey("SMTP_HOST")) {
            expected.addAll(SMTP);
        }
        if (service.equals("gateway")) {
            expected.addAll(Set.of("any 6379/TCP", "any 6380/TCP"));
        }
        if (service.equals("webhook-service")) {
            expected.addAll(Set.of("internet 443/TCP", "internet 80/TCP"));
        }
        if (service.equals("chain-watcher")) {
            expected.add("internet 443/TCP");
        }
        configuredCalls().stream()
                .filter(call -> call.startsWith(service + " -> "))
                .forEach(call -> {
                    String target = call.substring(call.indexOf(" -> ") + 4);
                    expected.add("pod:" + target.replace(':', ' ') + "/TCP");
                });
        assertThat(egress(service)).as(service).containsExactlyInAnyOrderElementsOf(expected);
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void theInternetMeansPublicAddressesOnly(String service) {
        for (Map<String, Object> rule : maps(at(policy(service), "spec", "egress"))) {
            for (Map<String, Object> peer : maps(rule.get("to"))) {
                Map<String, Object> block = map(peer.get("ipBlock"));
                if (block.isEmpty()) {
                    continue;
                }
                List<Object> except = list(block.get("except"));
                switch (String.valueOf(block.get("cidr"))) {
                    case "0.0.0.0/0" -> assertThat(except).as(service + " IPv4").containsAll(INTERNAL_V4);
                    case "::/0" -> assertThat(except).as(service + " IPv6").containsAll(INTERNAL_V6);
                    default -> fail(service + ": an ipBlock is the whole internet minus internal ranges: " + block);
                }
            }
        }
    }

    @Test
    void theDeploymentGuideDescribesThePolicies() {
        String docs = Repo.read("docs/deployment.md");
        assertThat(docs).contains("### Network policies");
        String section = docs.substring(docs.indexOf("### Network policies"));
        section =
                section.substring(0, section.indexOf("\n## ", 1) < 0 ? section.length() : section.indexOf("\n## ", 1));
        for (String port : List.of(
                "8080", "8081", "8082", "8083", "8084", "8085", "5432", "9092", "9093", "6379", "443", "53", "587")) {
            assertThat(section).as("port " + port).contains(port);
        }
        assertThat(section).contains("port-forward", "app.kubernetes.io/name=prometheus");
    }
}
