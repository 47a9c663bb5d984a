package dev.cryptopay.deploychecks;

import static dev.cryptopay.deploychecks.Repo.at;
import static dev.cryptopay.deploychecks.Repo.list;
import static dev.cryptopay.deploychecks.Repo.map;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
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

/** docker-compose.yml, checked without Docker: structure, health gating, configuration, ports and secrets. */
class ComposeFileTest {

    static final List<String> SERVICES = Repo.SERVICES;
    static final String TEXT = Repo.read("docker-compose.yml");
    static final Map<String, Object> COMPOSE = Repo.yamlMap(TEXT);
    static final Map<String, Object> CONTAINERS = map(COMPOSE.get("services"));

    static Map<String, String> env(String service) {
        return Repo.environment(at(CONTAINERS, service, "environment"));
    }

    /** A container that runs once and exits (restart "no"), like dev-chain-setup: others wait for its success. */
    static boolean isOneShot(String container) {
        return "no".equals(String.valueOf(at(CONTAINERS, container, "restart")));
    }

    /** The value after {@code option} in a container's command list, or null. */
    static String commandOption(String container, String option) {
        List<Object> command = list(at(CONTAINERS, container, "command"));
        int at = command.indexOf(option);
        return at < 0 || at + 1 >= command.size() ? null : String.valueOf(command.get(at + 1));
    }

    /** The port a service of ours listens on by default: {@code ${PORT:8081}} in its application.yml. */
    static int defaultPort(String service) {
        Matcher port = Pattern.compile("\\$\\{PORT:(\\d+)}")
                .matcher(Repo.read(service + "/src/main/resources/application.yml"));
        assertThat(port.find())
                .as(service + " application.yml has server.port ${PORT:…}")
                .isTrue();
        return Integer.parseInt(port.group(1));
    }

    /** Where a service of ours serves actuator: MANAGEMENT_SERVER_PORT when set, else its PORT. */
    static int actuatorPort(Map<String, String> env) {
        return Integer.parseInt(env.getOrDefault("MANAGEMENT_SERVER_PORT", env.get("PORT")));
    }

    /** GreenMail's test ports by protocol: the standard port plus 3000 (com.icegreen.greenmail.util.ServerSetupTest). */
    static final Map<String, Integer> GREENMAIL_TEST_PORTS =
            Map.of("smtp", 3025, "smtps", 3465, "imap", 3143, "imaps", 3993, "pop3", 3110, "pop3s", 3995);

    /** The ports a container listens on, as far as the other containers are concerned. */
    static Set<Integer> listeningPorts(String container) {
        Map<String, String> env = env(container);
        Set<Integer> ports = new TreeSet<>();
        if (SERVICES.contains(container)) {
            for (String key : List.of("PORT", "MANAGEMENT_SERVER_PORT", "GATEWAY_ADMIN_PORT")) {
                if (env.containsKey(key)) {
                    ports.add(Integer.parseInt(env.get(key)));
                }
            }
        } else if (container.equals("anvil")) {
            ports.add(Integer.parseInt(commandOption("anvil", "--port")));
        } else if (isOneShot(container)) {
            return ports; // listens on nothing
        } else if (container.equals("kafka")) {
            Matcher listener = Pattern.compile("\\w+://kafka:(\\d+)").matcher(env.get("KAFKA_ADVERTISED_LISTENERS"));
            while (listener.find()) {
                ports.add(Integer.parseInt(listener.group(1)));
            }
        } else if (container.equals("mail")) {
            // GreenMail's test setups (-Dgreenmail.setup.test.<protocol>) listen on the protocol's standard port plus
            // 3000 (its ServerSetupTest); its API on 8080 while it binds a host name (greenmail.hostname).
            Matcher setup =
                    Pattern.compile("-Dgreenmail\\.setup\\.test\\.(\\w+)").matcher(env.get("GREENMAIL_OPTS"));
            while (setup.find()) {
                ports.add(GREENMAIL_TEST_PORTS.get(setup.group(1)));
            }
            if (env.get("GREENMAIL_OPTS").contains("-Dgreenmail.hostname=")) {
                ports.add(8080);
            }
        } else {
            Map<String, Integer> imageDefaults =
                    Map.of("postgres", 5432, "redis", 6379, "prometheus", 9090, "grafana", 3000);
            ports.add(imageDefaults.get(container));
        }
        return ports;
    }

    @Test
    void definesTheInfrastructureTheDevChainTheMailRelayAndEveryService() {
        assertThat(CONTAINERS).containsKeys("postgres", "kafka", "redis", "mail", "anvil", "dev-chain-setup");
        assertThat(CONTAINERS).containsKeys(SERVICES.toArray(String[]::new));
    }

    @Test
    void everyContainerHasAHealthcheck() {
        CONTAINERS.forEach((name, definition) -> {
            if (isOneShot(name)) {
                assertThat(at(definition, "healthcheck"))
                        .as(name + " runs once: its exit status is its health")
                        .isNull();
                return;
            }
            Object test = at(definition, "healthcheck", "test");
            assertThat(test).as(name + " healthcheck.test").isNotNull();
            assertThat(String.valueOf(test)).as(name).doesNotContain("NONE");
            assertThat(at(definition, "healthcheck", "disable")).as(name).isNotEqualTo(Boolean.TRUE);
        });
    }

    @Test
    void startUpWaitsForHealthyDependencies() {
        CONTAINERS.forEach((name, definition) -> {
            Object dependsOn = at(definition, "depends_on");
            assertThat(dependsOn == null || dependsOn instanceof Map)
                    .as(name + ": depends_on must be the long form")
                    .isTrue();
            map(dependsOn).forEach((dependency, settings) -> {
                assertThat(CONTAINERS).as(name + " depends on " + dependency).containsKey(dependency);
                if (isOneShot(dependency)) {
                    assertThat(at(settings, "condition"))
                            .as(name + " → " + dependency + " (runs once)")
                            .isEqualTo("service_completed_successfully");
                    return;
                }
                assertThat(at(CONTAINERS, dependency, "healthcheck"))
                        .as(dependency + " healthcheck")
                        .isNotNull();
                assertThat(at(settings, "condition"))
                        .as(name + " → " + dependency)
                        .isEqualTo("service_healthy");
                if (at(definition, "profiles") == null) {
                    assertThat(at(CONTAINERS, dependency, "profiles"))
                            .as(name + " starts by default, so " + dependency + " must too")
                            .isNull();
                }
            });
        });
    }

    @Test
    void everyServiceWaitsForWhatItTalksTo() {
        for (String service : SERVICES) {
            Set<String> talksTo = new TreeSet<>(addresses(service).keySet());
            assertThat(map(at(CONTAINERS, service, "depends_on")).keySet())
                    .as(service)
                    .containsAll(talksTo);
        }
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void everyEnvironmentVariableIsRealConfigurationOfTheService(String service) {
        ServiceConfiguration configuration = ServiceConfiguration.of(service);
        List<String> unknown = new ArrayList<>();
        env(service).keySet().forEach(key -> {
            if (configuration.explain(key) == null) {
                unknown.add(key);
            }
        });
        assertThat(unknown)
                .as(service + ": variables its code never reads (no placeholder in application.yml, "
                        + "no @ConfigurationProperties component, not an allowed Spring Boot property)")
                .isEmpty();
        assertThat(env(service).keySet())
                .as(service + ": settings it cannot start without")
                .containsAll(configuration.requiredVariables());
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void portsAgreeBetweenApplicationDockerfileAndHealthcheck(String service) {
        Map<String, String> env = env(service);
        int port = Integer.parseInt(env.get("PORT"));
        assertThat(port).as(service + " PORT = its default port").isEqualTo(defaultPort(service));
        assertThat(DockerfilesTest.exposedPorts(service))
                .as(service + " Dockerfile EXPOSE")
                .containsAll(listeningPorts(service));
        String healthcheck = String.valueOf(at(CONTAINERS, service, "healthcheck", "test"));
        assertThat(healthcheck)
                .as(service + " healthcheck")
                .contains("http://127.0.0.1:" + actuatorPort(env) + "/actuator/health/readiness");
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void addressesGivenToAServicePointAtAPortTheOtherContainerListensOn(String service) {
        addresses(service).forEach((host, ports) -> {
            assertThat(listeningPorts(host))
                    .as(service + " is told to reach " + host + " on " + ports)
                    .containsAll(ports);
        });
    }

    /** Compose containers named in a service's environment values, with the ports used: host → ports. */
    static Map<String, Set<Integer>> addresses(String service) {
        Map<String, Set<Integer>> addresses = new HashMap<>();
        Pattern hostPort = Pattern.compile("(?:^|[/@,])([a-z][a-z0-9-]*):(\\d+)");
        env(service).values().forEach(value -> {
            Matcher matcher = hostPort.matcher(value);
            while (matcher.find()) {
                if (CONTAINERS.containsKey(matcher.group(1))) {
                    addresses
                            .computeIfAbsent(matcher.group(1), h -> new TreeSet<>())
                            .add(Integer.parseInt(matcher.group(2)));
                }
            }
        });
        return addresses;
    }

    @Test
    void theGatewayIsToldWhereEachServiceListens() {
        Map<String, String> gateway = env("gateway");
        Map<String, String> upstreams = Map.of(
                "PAYMENT_LINKS_URL",
                "payment-links-service",
                "SUBSCRIPTIONS_URL",
                "subscriptions-service",
                "WEBHOOKS_URL",
                "webhook-service",
                "NOTIFICATIONS_URL",
                "notification-service");
        upstreams.forEach((variable, service) -> assertThat(gateway.get(variable))
                .as(variable)
                .isEqualTo("http://" + service + ":" + env(service).get("PORT")));
    }

    @Test
    void eachServiceHasItsOwnDatabaseAndRoleCreatedByTheInitScript() {
        String script = Repo.read("deploy/docker/postgres/init-databases.sh");
        assertThat(Files.isExecutable(Repo.path("deploy/docker/postgres/init-databases.sh")))
                .isTrue();
        assertThat(list(at(CONTAINERS, "postgres", "volumes")))
                .contains(
                        "./deploy/docker/postgres/init-databases.sh:/docker-entrypoint-initdb.d/10-init-databases.sh:ro");
        // create_database <role> "$<PASSWORD_VARIABLE>" <database>
        Matcher create = Pattern.compile("(?m)^create_database\\s+(\\w+)\\s+\"\\$(\\w+)\"\\s+(\\w+)\\s*$")
                .matcher(script);
        Map<String, String[]> databases = new LinkedHashMap<>();
        while (create.find()) {
            databases.put(create.group(3), new String[] {create.group(1), create.group(2)});
        }
        assertThat(databases)
                .containsOnlyKeys(
                        "gateway", "payment_links", "webhooks", "subscriptions", "chain_watcher", "notifications");

        Map<String, String> postgres = env("postgres");
        Map<String, String[]> users = Map.of(
                "gateway",
                        new String[] {
                            "GATEWAY_DB_JDBC_URL", "GATEWAY_DB_R2DBC_URL", "GATEWAY_DB_USER", "GATEWAY_DB_PASSWORD"
                        },
                "payment-links-service",
                        new String[] {"DATABASE_JDBC_URL", "DATABASE_R2DBC_URL", "DATABASE_USER", "DATABASE_PASSWORD"},
                "subscriptions-service",
                        new String[] {"DATABASE_JDBC_URL", "DATABASE_R2DBC_URL", "DATABASE_USER", "DATABASE_PASSWORD"},
                "webhook-service",
                        new String[] {"DATABASE_JDBC_URL", "DATABASE_R2DBC_URL", "DATABASE_USER", "DATABASE_PASSWORD"},
                "chain-watcher",
                        new String[] {"DATABASE_JDBC_URL", "DATABASE_R2DBC_URL", "DATABASE_USER", "DATABASE_PASSWORD"},
                "notification-service",
                        new String[] {"DATABASE_JDBC_URL", "DATABASE_R2DBC_URL", "DATABASE_USER", "DATABASE_PASSWORD"});
        assertThat(users).as("every service has a database").containsOnlyKeys(SERVICES.toArray(String[]::new));
        Map<String, String> owners = new LinkedHashMap<>();
        users.forEach((service, keys) -> {
            assertThat(ServiceConfiguration.of(service).databaseVariables())
                    .as(service + " reads these database settings")
                    .containsExactlyInAnyOrder(keys);
            Map<String, String> env = env(service);
            String database = env.get(keys[0]).replaceAll(".*/", "");
            assertThat(env.get(keys[1])).as(service).endsWith("postgres:5432/" + database);
            assertThat(env.get(keys[0])).as(service).endsWith("postgres:5432/" + database);
            assertThat(databases).as(service + " database").containsKey(database);
            assertThat(owners.put(database, service))
                    .as(service + " shares the database " + database + " with another service")
                    .isNull();
            assertThat(env.get(keys[2]))
                    .as(service + " user owns " + database)
                    .isEqualTo(databases.get(database)[0]);
            assertThat(env.get(keys[3]))
                    .as(service + " password = the one the init script set")
                    .isEqualTo(postgres.get(databases.get(database)[1]));
        });
        assertThat(owners.keySet())
                .as("the init script creates no database that no service uses")
                .containsExactlyInAnyOrderElementsOf(databases.keySet());
        assertThat(String.valueOf(at(CONTAINERS, "postgres", "image"))).startsWith("postgres:17");
    }

    @ParameterizedTest
    @FieldSource("SERVICES")
    void settingsThatDefaultToTheLocalMachineAreSetToAnotherContainer(String service) {
        Map<String, String> env = env(service);
        for (String variable : ServiceConfiguration.of(service).loopbackDefaultsLeftWith(env.keySet())) {
            assertThat(env)
                    .as(service + ": " + variable + " defaults to this machine, which in a container is itself")
                    .containsKey(variable);
            assertThat(ServiceConfiguration.LOOPBACK.matcher(env.get(variable)).find())
                    .as(service + ": " + variable + "=" + env.get(variable))
                    .isFalse();
        }
    }

    @Test
    void theGatewayUsesRedisAndKeepsItsAdminPortOnLoopback() {
        Map<String, String> gateway = env("gateway");
        assertThat(gateway).containsEntry("GATEWAY_REDIS_ENABLED", "true");
        assertThat(gateway.get("GATEWAY_REDIS_URI"))
                .isEqualTo("redis://redis:" + listeningPorts("redis").iterator().next());
        assertThat(gateway).containsEntry("GATEWAY_ADMIN_HOST", "0.0.0.0");
        String adminPort = gateway.get("GATEWAY_ADMIN_PORT");
        List<String> ports = list(at(CONTAINERS, "gateway", "ports")).stream()
                .map(String::valueOf)
                .toList();
        assertThat(ports).contains("127.0.0.1:" + adminPort + ":" + adminPort);
        assertThat(ports).filteredOn(p -> p.endsWith(":" + adminPort)).allMatch(p -> p.startsWith("127.0.0.1:"));
        assertThat(ports)
                .as("actuator stays unpublished")
                .noneMatch(p -> p.endsWith(":" + gateway.get("MANAGEMENT_SERVER_PORT")));
    }

    @Test
    void publishedPortsBindToLoopbackOnly() {
        CONTAINERS.forEach((name, definition) -> list(at(definition, "ports"))
                .forEach(port ->
                        assertThat(String.valueOf(port)).as(name + " publishes").startsWith("127.0.0.1:")));
    }

    @Test
    void privateWebhookAddressesAreALocalDevelopmentSettingSaidSo() {
        assertThat(env("webhook-service")).containsEntry("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", "true");
        List<String> lines = TEXT.lines().toList();
        int index = 0;
        while (!lines.get(index).trim().startsWith("WEBHOOK_ALLOW_PRIVATE_ADDRESSES:")) {
            index++;
        }
        StringBuilder comment = new StringBuilder();
        for (int i = index - 1; i >= 0 && lines.get(i).trim().startsWith("#"); i--) {
            comment.insert(0, lines.get(i));
        }
        assertThat(comment.toString()).contains("LOCAL DEVELOPMENT ONLY").contains("Never");
        for (String service : SERVICES) {
            if (!service.equals("webhook-service")) {
                assertThat(env(service)).doesNotContainKey("WEBHOOK_ALLOW_PRIVATE_ADDRESSES");
            }
        }
    }

    @Test
    void kafkaIsOneKraftNodeAdvertisedToTheOtherContainers() {
        Map<String, String> kafka = env("kafka");
        assertThat(at(CONTAINERS, "kafka", "image")).isEqualTo("apache/kafka:4.1.2");
        assertThat(kafka.get("KAFKA_PROCESS_ROLES")).isEqualTo("broker,controller");
        assertThat(Base64.getUrlDecoder().decode(kafka.get("CLUSTER_ID")))
                .as("CLUSTER_ID is a base64url UUID")
                .hasSize(16);
        assertThat(kafka.get("KAFKA_CONTROLLER_QUORUM_VOTERS")).startsWith(kafka.get("KAFKA_NODE_ID") + "@kafka:");
        String internal = kafka.get("KAFKA_INTER_BROKER_LISTENER_NAME");
        Matcher advertised =
                Pattern.compile(internal + "://(kafka:\\d+)").matcher(kafka.get("KAFKA_ADVERTISED_LISTENERS"));
        assertThat(advertised.find())
                .as("the inter-broker listener is advertised as kafka:<port>")
                .isTrue();
        for (String listener : kafka.get("KAFKA_ADVERTISED_LISTENERS").split(",")) {
            String name = listener.substring(0, listener.indexOf("://"));
            assertThat(kafka.get("KAFKA_LISTENERS")).contains(name + "://");
            assertThat(kafka.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP")).contains(name + ":");
        }
        for (String service : SERVICES) {
            if (ServiceConfiguration.of(service).placeholders.containsKey("KAFKA_BOOTSTRAP_SERVERS")) {
                assertThat(env(service).get("KAFKA_BOOTSTRAP_SERVERS"))
                        .as(service)
                        .isEqualTo(advertised.group(1));
                assertThat(map(at(CONTAINERS, service, "depends_on")))
                        .as(service + " waits for Kafka")
                        .containsKey("kafka");
            } else {
                assertThat(env(service)).as(service).doesNotContainKey("KAFKA_BOOTSTRAP_SERVERS");
            }
        }
        assertThat(SERVICES.stream().filter(service -> env(service).containsKey("KAFKA_BOOTSTRAP_SERVERS")))
                .as("the services that publish or consume events (the gateway publishes gateway.events)")
                .containsExactly(
                        "gateway",
                        "payment-links-service",
                        "subscriptions-service",
                        "webhook-service",
                        "chain-watcher",
                        "notification-service");
    }

    @Test
    void notificationServiceSendsThroughTheMailContainerOnItsSmtpPort() {
        Map<String, String> env = env("notification-service");
        String relay = env.get("SMTP_HOST");
        assertThat(CONTAINERS).as("SMTP_HOST names a container").containsKey(relay);
        int port = Integer.parseInt(env.get("SMTP_PORT"));
        assertThat(listeningPorts(relay))
                .as("notification-service is told to reach " + relay + " on " + port)
                .contains(port);
        assertThat(at(CONTAINERS, "notification-service", "depends_on", relay, "condition"))
                .as("it waits for the relay")
                .isEqualTo("service_healthy");
        assertThat(String.valueOf(at(CONTAINERS, relay, "healthcheck", "test")))
                .as("the relay's healthcheck talks SMTP on that port")
                .contains("/dev/tcp/127.0.0.1/" + port)
                .contains("220");
        assertThat(env)
                .as("GreenMail asks for no credentials and offers no STARTTLS: the defaults (false, empty) fit")
                .doesNotContainKeys("SMTP_AUTH", "SMTP_STARTTLS", "SMTP_USERNAME", "SMTP_PASSWORD");

        Matcher version = Pattern.compile("<greenmail\\.version>([^<]+)</greenmail\\.version>")
                .matcher(Repo.read("pom.xml"));
        assertThat(version.find()).as("the root pom pins GreenMail").isTrue();
        assertThat(at(CONTAINERS, relay, "image"))
                .as("GreenMail's own image of the version the tests and ./run-local use")
                .isEqualTo("greenmail/standalone:" + version.group(1));
        List<String> published = list(at(CONTAINERS, relay, "ports")).stream()
                .map(String::valueOf)
                .toList();
        assertThat(published)
                .as("SMTP and IMAP on this host's loopback, GreenMail's API not at all")
                .containsExactlyInAnyOrder(
                        "127.0.0.1:" + port + ":" + port,
                        "127.0.0.1:" + GREENMAIL_TEST_PORTS.get("imap") + ":" + GREENMAIL_TEST_PORTS.get("imap"));
    }

    @Test
    void imagesArePinnedAndOurServicesAreBuiltFromTheirDockerfiles() {
        CONTAINERS.forEach((name, definition) -> {
            String image = String.valueOf(at(definition, "image"));
            assertThat(image).as(name + " image has a tag").matches("[^:]+:[^:]+");
            assertThat(image).as(name).doesNotEndWith(":latest");
        });
        for (String service : SERVICES) {
            assertThat(at(CONTAINERS, service, "image")).isEqualTo("cryptopay/" + service + ":local");
            assertThat(at(CONTAINERS, service, "build", "context")).as(service).isEqualTo(".");
            assertThat(at(CONTAINERS, service, "build", "dockerfile"))
                    .as(service)
                    .isEqualTo("deploy/docker/" + service + ".Dockerfile");
        }
    }

    @Test
    void bindMountedFilesExist() {
        CONTAINERS.forEach((name, definition) -> list(at(definition, "volumes")).forEach(volume -> {
            String source = String.valueOf(volume).split(":")[0];
            if (source.startsWith("./")) {
                assertThat(Repo.path(source.substring(2)))
                        .as(name + " mounts " + source)
                        .exists();
            } else {
                assertThat(map(COMPOSE.get("volumes")))
                        .as(name + " named volume")
                        .containsKey(source);
            }
        }));
    }

    @Test
    void secretsHaveObviouslyDevelopmentDefaults() {
        Pattern secretVariable = Pattern.compile("\\$\\{([A-Z_]*(SECRET|PASSWORD|TOKEN|KEY)[A-Z_]*):-([^}]*)}");
        Matcher matcher = secretVariable.matcher(TEXT);
        String developmentSecrets =
                Repo.read("service-support/src/main/java/dev/cryptopay/service/production/DevelopmentSecrets.java");
        int count = 0;
        while (matcher.find()) {
            count++;
            String value = matcher.group(3);
            if (matcher.group(1).contains("_INTERNAL_AUTH_")) {
                // A key pair cannot say dev-only: these are development pairs the production profile knows and refuses.
                assertThat(developmentSecrets)
                        .as(matcher.group(1) + " defaults to a development key listed in DevelopmentSecrets")
                        .contains("\"" + value.replaceFirst("^Ed25519:", "") + "\"");
                continue;
            }
            if (matcher.group(1).equals("WEBHOOK_SECRET_ENCRYPTION_KEY")) {
                value = new String(Base64.getDecoder().decode(value));
                assertThat(value.getBytes())
                        .as("WEBHOOK_SECRET_ENCRYPTION_KEY is 32 bytes")
                        .hasSize(32);
            }
            assertThat(value).as(matcher.group(1)).startsWith("dev-only-");
        }
        assertThat(count).isGreaterThanOrEqualTo(13);
        assertThat(env("gateway").get("GATEWAY_ADMIN_TOKEN"))
                .as("admin token: 24 characters or more")
                .hasSizeGreaterThanOrEqualTo(24);
    }
}
