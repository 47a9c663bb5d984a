package dev.cryptopay.deploychecks;

import static dev.cryptopay.deploychecks.Repo.at;
import static dev.cryptopay.deploychecks.Repo.list;
import static dev.cryptopay.deploychecks.Repo.map;
import static dev.cryptopay.deploychecks.Repo.maps;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** deploy/k8s: Kustomize bases per service and the sandbox and production overlays, checked without a cluster. */
class KustomizeTest {

    static final List<String> SERVICES = Repo.SERVICES;
    static final List<String> ENVIRONMENTS = List.of("sandbox", "production");
    static final Path K8S = Repo.path("deploy/k8s");

    static Map<String, Object> kustomization(Path dir) {
        Path file = dir.resolve("kustomization.yaml");
        assertThat(file).as(Repo.relative(dir) + " has a kustomization.yaml").isRegularFile();
        return Repo.yamlMap(Repo.read(file));
    }

    static Map<String, Object> base(String service) {
        return kustomization(K8S.resolve("base/" + service));
    }

    /** The one object of a kind in the base of a service (by name). */
    static Map<String, Object> object(String service, String kind, String name) {
        for (Object resource : list(base(service).get("resources"))) {
            for (Map<String, Object> document : Repo.yamlDocuments(K8S.resolve("base/" + service + "/" + resource))) {
                if (kind.equals(document.get("kind")) && name.equals(at(document, "metadata", "name"))) {
                    return document;
                }
            }
        }
        throw new AssertionError(service + " base has no " + kind + " " + name);
    }

    static Map<String, Object> container(String service) {
        List<Map<String, Object>> containers =
                Repo.maps(at(object(service, "Deployment", service), "spec", "template", "spec", "containers"));
        assertThat(containers).as(service + " containers").hasSize(1);
        return containers.get(0);
    }

    /** KEY=VALUE literals of a kustomization's configMapGenerator entry. */
    static Map<String, String> literals(Map<String, Object> kustomization, String configMap) {
        Map<String, String> literals = new LinkedHashMap<>();
        for (Map<String, Object> generator : maps(kustomization.get("configMapGenerator"))) {
            if (configMap.equals(generator.get("name"))) {
                for (Object literal : list(generator.get("literals"))) {
                    String text = String.valueOf(literal);
                    literals.put(text.substring(0, text.indexOf('=')), text.substring(text.indexOf('=') + 1));
                }
            }
        }
        return literals;
    }

    /** Keys of base/&lt;service&gt;/secret.env.example, the documented content of the service's Secret. */
    static Set<String> secretKeys(String service) {
        Set<String> keys = new TreeSet<>();
        Repo.read("deploy/k8s/base/" + service + "/secret.env.example")
                .lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .forEach(line -> keys.add(line.substring(0, line.indexOf('='))));
        return keys;
    }

    static Map<String, Integer> containerPorts(String service) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        maps(container(service).get("ports"))
                .forEach(port -> ports.put(String.valueOf(port.get("name")), (Integer) port.get("containerPort")));
        return ports;
    }

    @Test
    void everyKustomizationParsesAndReferencesExistingFiles() {
        List<Path> kustomizations = Repo.walk(K8S, "kustomization.yaml");
        assertThat(kustomizations).hasSize(SERVICES.size() * (1 + ENVIRONMENTS.size()) + ENVIRONMENTS.size());
        for (Path file : kustomizations) {
            Path dir = file.getParent();
            Map<String, Object> kustomization = kustomization(dir);
            assertThat(kustomization.get("kind")).as(Repo.relative(file)).isEqualTo("Kustomization");
            for (Object resource : list(kustomization.get("resources"))) {
                Path target = dir.resolve(String.valueOf(resource)).normalize();
                assertThat(Files.isRegularFile(target) || Files.isRegularFile(target.resolve("kustomization.yaml")))
                        .as(Repo.relative(file) + " resource " + resource)
                        .isTrue();
            }
            for (Map<String, Object> patch : maps(kustomization.get("patches"))) {
                if (patch.containsKey("path")) {
                    assertThat(dir.resolve(String.valueOf(patch.get("path")))).isRegularFile();
                } else {
                    assertThat(Repo.yamlMap(String.valueOf(patch.get("patch"))))
                            .as(Repo.relative(file) + " patch")
                            .containsKeys("apiVersion", "kind", "metadata");
                }
            }
        }
        for (Path yaml : Repo.walk(K8S, ".yaml")) {
            assertThat(Repo.yamlDocuments(yaml)).as(Repo.relative(yaml)).isNotEmpty();
        }
    }

    @Test
    void noSecretIsCommitted() {
        for (Path yaml : Repo.walk(K8S, ".yaml")) {
            assertThat(Repo.yamlDocuments(yaml))
                    .as(Repo.relative(yaml))
                    .noneMatch(document ->
                            "Secret".equals(document.get("kind")) || document.containsKey("secretGenerator"));
        }
        assertThat(Repo.walk(K8S, "secret.env")).as("filled-in secret files").isEmpty();
        assertThat(Repo.read("deploy/k8s/.gitignore").lines()).contains("secret.env");
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void theBaseDeploysTheServiceOnItsOwn(String service) {
        Map<String, Object> kustomization = base(service);
        assertThat(list(kustomization.get("resources")))
                .as("only the service's own files")
                .allSatisfy(resource -> assertThat(String.valueOf(resource)).doesNotContain("/"));
        assertThat(kustomization).doesNotContainKey("namespace");

        Map<String, Object> deployment = object(service, "Deployment", service);
        Map<String, Object> podLabels = map(at(deployment, "spec", "template", "metadata", "labels"));
        assertThat(map(at(deployment, "spec", "selector", "matchLabels")))
                .isNotEmpty()
                .allSatisfy((key, value) -> assertThat(podLabels).containsEntry(key, value));
        Map<String, Object> serviceObject = object(service, "Service", service);
        assertThat(map(at(serviceObject, "spec", "selector")))
                .isNotEmpty()
                .allSatisfy((key, value) -> assertThat(podLabels).containsEntry(key, value));
        for (Map<String, Object> port : maps(at(serviceObject, "spec", "ports"))) {
            assertThat(containerPorts(service))
                    .as("Service targetPort")
                    .containsKey(String.valueOf(port.get("targetPort")));
        }

        Map<String, Object> container = container(service);
        assertThat(String.valueOf(container.get("image"))).startsWith("cryptopay/" + service + ":");
        for (String kind : List.of("requests", "limits")) {
            assertThat(map(at(container, "resources", kind)))
                    .as(service + " resources." + kind)
                    .containsKeys("cpu", "memory");
        }
        assertThat(at(container, "readinessProbe", "httpGet", "path")).isEqualTo("/actuator/health/readiness");
        assertThat(at(container, "livenessProbe", "httpGet", "path")).isEqualTo("/actuator/health/liveness");

        List<Map<String, Object>> envFrom = maps(container.get("envFrom"));
        assertThat(envFrom).extracting(from -> at(from, "configMapRef", "name")).contains(service + "-config");
        assertThat(envFrom).extracting(from -> at(from, "secretRef", "name")).contains(service + "-secrets");
        assertThat(literals(kustomization, service + "-config"))
                .as("generated ConfigMap " + service + "-config")
                .isNotEmpty();

        Map<String, Object> pod = map(at(deployment, "spec", "template", "spec"));
        assertThat(at(pod, "securityContext", "runAsNonRoot")).isEqualTo(true);
        assertThat(String.valueOf(at(pod, "securityContext", "runAsUser")))
                .as("the Dockerfile's USER")
                .isEqualTo(DockerfilesTest.user(service).split(":")[0]);
        assertThat(at(container, "securityContext", "readOnlyRootFilesystem")).isEqualTo(true);
        assertThat(at(container, "securityContext", "allowPrivilegeEscalation")).isEqualTo(false);
        assertThat(maps(container.get("volumeMounts")))
                .extracting(mount -> mount.get("mountPath"))
                .contains("/tmp");
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void configMapAndSecretHoldOnlyRealConfigurationAndEverythingRequired(String service) {
        ServiceConfiguration configuration = ServiceConfiguration.of(service);
        Set<String> keys =
                new TreeSet<>(literals(base(service), service + "-config").keySet());
        keys.addAll(secretKeys(service));
        for (String environment : ENVIRONMENTS) {
            keys.addAll(
                    literals(kustomization(K8S.resolve("overlays/" + environment + "/" + service)), service + "-config")
                            .keySet());
        }
        List<String> unknown =
                keys.stream().filter(key -> configuration.explain(key) == null).toList();
        assertThat(unknown).as(service + ": keys its code never reads").isEmpty();
        assertThat(keys)
                .as(service + ": settings it cannot start without")
                .containsAll(configuration.requiredVariables());
        Set<String> overlap =
                new TreeSet<>(literals(base(service), service + "-config").keySet());
        overlap.retainAll(secretKeys(service));
        assertThat(overlap)
                .as("a key lives either in the ConfigMap or in the Secret")
                .isEmpty();
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void databaseCredentialsAndTheInternalKeysAreInTheSecret(String service) {
        ServiceConfiguration configuration = ServiceConfiguration.of(service);
        Set<String> secret = new TreeSet<>(configuration.databaseVariables());
        secret.addAll(configuration.internalKeyVariables());
        assertThat(configuration.databaseVariables())
                .as(service + " has a database of its own")
                .hasSize(4);
        assertThat(secretKeys(service)).as(service + "-secrets").containsAll(secret);
        assertThat(literals(base(service), service + "-config").keySet())
                .as(service + "-config holds no secret")
                .doesNotContainAnyElementsOf(secret);
        String database = ComposeFileTest.env(service)
                .get(configuration.databaseVariables().stream()
                        .filter(key -> key.endsWith("JDBC_URL"))
                        .findFirst()
                        .orElseThrow())
                .replaceAll(".*/", "");
        Repo.read("deploy/k8s/base/" + service + "/secret.env.example")
                .lines()
                .filter(line -> line.matches("[A-Z0-9_]+_URL=\\w+:postgresql:.*"))
                .forEach(line -> assertThat(line)
                        .as(service + ": the same database as in docker-compose.yml")
                        .endsWith("/" + database));
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void settingsThatDefaultToTheLocalMachineAreSetInTheCluster(String service) {
        Map<String, String> config = new LinkedHashMap<>(literals(base(service), service + "-config"));
        for (String environment : ENVIRONMENTS) {
            config.putAll(literals(
                    kustomization(K8S.resolve("overlays/" + environment + "/" + service)), service + "-config"));
        }
        Set<String> given = new TreeSet<>(config.keySet());
        given.addAll(secretKeys(service));
        for (String variable : ServiceConfiguration.of(service).loopbackDefaultsLeftWith(given)) {
            assertThat(config.containsKey(variable) || secretKeys(service).contains(variable))
                    .as(service + ": " + variable + " defaults to this machine, which in a pod is the pod itself")
                    .isTrue();
            if (config.containsKey(variable)) {
                assertThat(ServiceConfiguration.LOOPBACK
                                .matcher(config.get(variable))
                                .find())
                        .as(service + ": " + variable + "=" + config.get(variable))
                        .isFalse();
            }
        }
    }

    @Test
    void eachEnvironmentGivesItsCheckoutUrlToEveryServiceThatLinksToTheCheckout() {
        List<String> readers = SERVICES.stream()
                .filter(service -> ServiceConfiguration.of(service).placeholders.containsKey("CHECKOUT_URL"))
                .toList();
        assertThat(readers).containsExactly("payment-links-service", "subscriptions-service");
        Map<String, String> checkout = Map.of(
                "sandbox", "https://checkout.sandbox.cryptopay.dev", "production", "https://checkout.cryptopay.dev");
        for (String service : readers) {
            assertThat(literals(base(service), service + "-config"))
                    .as(service + ": the base leaves the checkout to the environment")
                    .doesNotContainKey("CHECKOUT_URL");
            assertThat(secretKeys(service)).doesNotContain("CHECKOUT_URL");
            checkout.forEach((environment, url) -> assertThat(literals(
                            kustomization(K8S.resolve("overlays/" + environment + "/" + service)), service + "-config"))
                    .as(environment + " overlay of " + service)
                    .containsEntry("CHECKOUT_URL", url));
            assertThat(ServiceConfiguration.of(service).defaults.get("CHECKOUT_URL"))
                    .as(service + ": without CHECKOUT_URL it links to the sandbox checkout, never to production")
                    .isEqualTo(checkout.get("sandbox"));
        }
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void portsProbesAndMetricsAnnotationAgree(String service) {
        Map<String, String> config = literals(base(service), service + "-config");
        Map<String, Integer> ports = containerPorts(service);
        assertThat(config.get("PORT")).isEqualTo(String.valueOf(ComposeFileTest.defaultPort(service)));
        assertThat(ports).containsEntry("http", Integer.parseInt(config.get("PORT")));
        String actuator = "http";
        if (config.containsKey("MANAGEMENT_SERVER_PORT")) {
            actuator = "management";
            assertThat(ports).containsEntry("management", Integer.parseInt(config.get("MANAGEMENT_SERVER_PORT")));
        }
        if (config.containsKey("GATEWAY_ADMIN_PORT")) {
            assertThat(ports).containsEntry("admin", Integer.parseInt(config.get("GATEWAY_ADMIN_PORT")));
        }
        for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
            assertThat(at(container(service), probe, "httpGet", "port"))
                    .as(service + " " + probe)
                    .isEqualTo(actuator);
        }
        assertThat(DockerfilesTest.exposedPorts(service)).containsAll(ports.values());
        Map<String, Object> annotations =
                map(at(object(service, "Deployment", service), "spec", "template", "metadata", "annotations"));
        if (!annotations.isEmpty()) {
            assertThat(annotations)
                    .containsEntry("prometheus.io/port", String.valueOf(ports.get(actuator)))
                    .containsEntry("prometheus.io/path", "/actuator/prometheus");
        }
        assertThat(annotations.isEmpty())
                .as("scrape annotations exactly when the service exports Prometheus metrics")
                .isEqualTo(!ObservabilityTest.exportsPrometheusMetrics(service));
    }

    @Test
    void theGatewayReachesEachServiceThroughItsKubernetesService() {
        Map<String, String> config = literals(base("gateway"), "gateway-config");
        Map<String, String> upstreams = Map.of(
                "PAYMENT_LINKS_URL",
                "payment-links-service",
                "SUBSCRIPTIONS_URL",
                "subscriptions-service",
                "WEBHOOKS_URL",
                "webhook-service",
                "NOTIFICATIONS_URL",
                "notification-service");
        upstreams.forEach((variable, service) -> {
            Map<String, Object> port = maps(at(object(service, "Service", service), "spec", "ports"))
                    .get(0);
            assertThat(config.get(variable)).isEqualTo("http://" + service + ":" + port.get("port"));
        });
        assertThat(config).containsEntry("GATEWAY_REDIS_ENABLED", "true");
        assertThat(config).containsEntry("GATEWAY_ADMIN_HOST", "0.0.0.0");
        assertThat(object("gateway", "Service", "gateway-admin"))
                .extracting(s -> at(s, "spec", "type"))
                .as("the admin API stays inside the cluster")
                .isEqualTo("ClusterIP");
    }

    @ParameterizedTest
    @FieldSource("ENVIRONMENTS")
    void overlaysSetImageReplicasAndResourcesForEachService(String environment) {
        Path overlay = K8S.resolve("overlays/" + environment);
        assertThat(list(kustomization(overlay).get("resources"))).containsExactlyInAnyOrderElementsOf(SERVICES);
        for (String service : SERVICES) {
            Map<String, Object> kustomization = kustomization(overlay.resolve(service));
            assertThat(list(kustomization.get("resources"))).contains("../../../base/" + service);
            assertThat(String.valueOf(kustomization.get("namespace"))).startsWith("cryptopay");
            assertThat(maps(kustomization.get("images"))).singleElement().satisfies(image -> {
                assertThat(image.get("name")).isEqualTo("cryptopay/" + service);
                assertThat(String.valueOf(image.get("newTag"))).isNotBlank();
            });
            Map<String, Object> patch = Repo.yamlMap(
                    String.valueOf(maps(kustomization.get("patches")).get(0).get("patch")));
            Map<String, Object> patched =
                    maps(at(patch, "spec", "template", "spec", "containers")).get(0);
            assertThat(patched.get("name")).isEqualTo(service);
            assertThat(map(at(patched, "resources", "requests"))).containsKeys("cpu", "memory");
            assertThat(map(at(patched, "resources", "limits"))).containsKeys("cpu", "memory");
            for (Map<String, Object> generator : maps(kustomization.get("configMapGenerator"))) {
                assertThat(generator).containsEntry("name", service + "-config").containsEntry("behavior", "merge");
            }

            int minimum = environment.equals("production") ? 2 : 1;
            if (service.equals("gateway")) {
                Map<String, Object> hpa =
                        Repo.yamlDocuments(overlay.resolve("gateway/hpa.yaml")).get(0);
                assertThat(list(kustomization.get("resources"))).contains("hpa.yaml");
                assertThat(hpa.get("kind")).isEqualTo("HorizontalPodAutoscaler");
                assertThat(hpa.get("apiVersion")).isEqualTo("autoscaling/v2");
                assertThat(map(at(hpa, "spec", "scaleTargetRef")))
                        .containsEntry("kind", "Deployment")
                        .containsEntry("name", "gateway");
                int min = (Integer) at(hpa, "spec", "minReplicas");
                assertThat(min).isGreaterThanOrEqualTo(minimum).isLessThanOrEqualTo((Integer)
                        at(hpa, "spec", "maxReplicas"));
                assertThat(maps(at(hpa, "spec", "metrics"))).anySatisfy(metric -> {
                    assertThat(at(metric, "resource", "name")).isEqualTo("cpu");
                    assertThat(at(metric, "resource", "target", "type")).isEqualTo("Utilization");
                    assertThat((Integer) at(metric, "resource", "target", "averageUtilization"))
                            .isBetween(10, 100);
                });
            } else {
                assertThat(maps(kustomization.get("replicas"))).singleElement().satisfies(replicas -> {
                    assertThat(replicas.get("name")).isEqualTo(service);
                    assertThat((Integer) replicas.get("count")).isGreaterThanOrEqualTo(minimum);
                });
            }
            if (environment.equals("production")) {
                assertThat(list(kustomization.get("resources"))).contains("pdb.yaml");
                Map<String, Object> pdb = Repo.yamlDocuments(overlay.resolve(service + "/pdb.yaml"))
                        .get(0);
                assertThat(pdb.get("kind")).isEqualTo("PodDisruptionBudget");
                assertThat(map(at(pdb, "spec", "selector", "matchLabels")))
                        .isEqualTo(map(at(object(service, "Deployment", service), "spec", "selector", "matchLabels")));
            }
        }
    }

    @Test
    void theGatewaysReplicaCountIsLeftToItsAutoscaler() {
        assertThat(map(object("gateway", "Deployment", "gateway").get("spec"))).doesNotContainKey("replicas");
    }

    @Test
    void webhooksNeverReachPrivateAddressesInAnyCluster() {
        ServiceConfiguration webhooks = ServiceConfiguration.of("webhook-service");
        List<Path> kustomizations = Repo.walk(K8S, "kustomization.yaml");
        for (Path file : kustomizations) {
            literals(kustomization(file.getParent()), "webhook-service-config").forEach((key, value) -> {
                String binds = webhooks.explain(key);
                if (key.equals("WEBHOOK_ALLOW_PRIVATE_ADDRESSES") || binds != null && binds.contains("allow-private")) {
                    assertThat(value).as(Repo.relative(file) + " " + key).isEqualTo("false");
                }
            });
        }
        assertThat(secretKeys("webhook-service")).doesNotContain("WEBHOOK_ALLOW_PRIVATE_ADDRESSES");
    }

    /** Repeats with the real Kustomize (kubectl kustomize) what the tests above check in Java. */
    @Test
    void kubectlRendersEveryKustomization() {
        ExternalTool kubectl = ExternalTool.optional(
                "kubectl", "the Java checks above still ran; install kubectl to also render every kustomization");
        for (Path file : Repo.walk(K8S, "kustomization.yaml")) {
            Path dir = file.getParent();
            ExternalTool.Result result = kubectl.run(Repo.ROOT, "kustomize", Repo.relative(dir));
            assertThat(result.exitCode())
                    .as("kubectl kustomize " + Repo.relative(dir) + "\n" + result.output())
                    .isZero();
            List<Map<String, Object>> objects = new ArrayList<>();
            for (Object document : Repo.yaml().loadAll(result.output())) {
                objects.add(map(document));
            }
            assertThat(objects).as(Repo.relative(dir)).noneMatch(o -> "Secret".equals(o.get("kind")));
            Set<String> configMaps = new TreeSet<>();
            objects.stream()
                    .filter(o -> "ConfigMap".equals(o.get("kind")))
                    .forEach(o -> configMaps.add(String.valueOf(at(o, "metadata", "name"))));
            for (Map<String, Object> deployment : objects.stream()
                    .filter(o -> "Deployment".equals(o.get("kind")))
                    .toList()) {
                for (Map<String, Object> container : maps(at(deployment, "spec", "template", "spec", "containers"))) {
                    for (Map<String, Object> from : maps(container.get("envFrom"))) {
                        Object configMap = at(from, "configMapRef", "name");
                        if (configMap != null) {
                            assertThat(configMaps)
                                    .as(Repo.relative(dir) + " renders the ConfigMap it references")
                                    .contains(String.valueOf(configMap));
                        }
                    }
                }
            }
        }
    }

    static final Pattern LITERAL = Pattern.compile("^([A-Z0-9_]+)=(.*)$");

    @Test
    void configMapLiteralsAreWellFormed() {
        for (Path file : Repo.walk(K8S, "kustomization.yaml")) {
            for (Map<String, Object> generator :
                    maps(kustomization(file.getParent()).get("configMapGenerator"))) {
                for (Object literal : list(generator.get("literals"))) {
                    Matcher matcher = LITERAL.matcher(String.valueOf(literal));
                    assertThat(matcher.matches())
                            .as(Repo.relative(file) + ": " + literal)
                            .isTrue();
                }
            }
        }
    }
}
