package dev.cryptopay.deploychecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The Kafka topics the services write and read ({@code *.events}, named in their application.yml) are the ones the
 * deployments create and document: the local stack's launcher creates each up front (so webhook-service's pattern
 * subscription sees it at once), and docs/deployment.md names each for the brokers' ACLs and topic creation.
 */
class EventTopicsTest {

    static final String LAUNCHER_TOPICS = "deploy/src/main/java/dev/cryptopay/deploy/StackKafka.java";
    static final String KAFKA_SECURITY_SECTION = "### Kafka with TLS and SASL";

    /** Each {@code *.events} topic named in a service's application.yml ({@code topic}, {@code events-topic}) → who. */
    static Map<String, Set<String>> topics() {
        Map<String, Set<String>> topics = new TreeMap<>();
        for (String service : Repo.SERVICES) {
            Map<String, Object> yml = Repo.yamlMap(Repo.read(service + "/src/main/resources/application.yml"));
            collect(service, yml, topics);
        }
        return topics;
    }

    private static void collect(String service, Object node, Map<String, Set<String>> topics) {
        Repo.map(node).forEach((key, value) -> {
            String name = String.valueOf(key);
            if (value instanceof Map<?, ?>) {
                collect(service, value, topics);
            } else if ((name.equals("topic") || name.endsWith("-topic"))
                    && String.valueOf(value).endsWith(".events")) {
                topics.computeIfAbsent(String.valueOf(value), t -> new TreeSet<>())
                        .add(service);
            }
        });
    }

    @Test
    void theServicesNameTheirEventsTopics() {
        assertThat(topics())
                .as("topic → the services naming it (its producer; chain-watcher also reads payment-links.events)")
                .containsOnlyKeys("payment-links.events", "subscriptions.events", "gateway.events")
                .containsEntry("gateway.events", Set.of("gateway"))
                .containsEntry("subscriptions.events", Set.of("subscriptions-service"))
                .containsEntry("payment-links.events", Set.of("payment-links-service", "chain-watcher"));
    }

    @Test
    void theLocalStackCreatesEveryTopicWithThreePartitions() {
        String launcher = Repo.read(LAUNCHER_TOPICS);
        for (String topic : topics().keySet()) {
            assertThat(launcher).as(LAUNCHER_TOPICS + " creates " + topic).contains("\"" + topic + "\"");
        }
        assertThat(launcher).contains("new NewTopic(topic, 3, (short) 1)");
    }

    @Test
    void theDeploymentGuideNamesEveryTopicForTheBrokersAclsAndCreation() {
        String docs = Repo.read("docs/deployment.md");
        assertThat(docs).contains(KAFKA_SECURITY_SECTION);
        String section = docs.substring(docs.indexOf(KAFKA_SECURITY_SECTION));
        section = section.substring(0, section.indexOf("\n## "));
        for (String topic : topics().keySet()) {
            assertThat(section)
                    .as("docs/deployment.md, Kafka with TLS and SASL")
                    .contains("`" + topic + "`");
        }
    }
}
