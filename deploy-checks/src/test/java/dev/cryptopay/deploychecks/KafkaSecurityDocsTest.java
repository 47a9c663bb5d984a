package dev.cryptopay.deploychecks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * docs/deployment.md, "Kafka with TLS and SASL": the variables it gives are bound the way Spring Boot binds a
 * service's environment and make every Kafka client of the service (producer, consumer, admin) use SASL_SSL with
 * SCRAM-SHA-512 and trust the given CA; and every service that uses Kafka accepts them as configuration.
 */
class KafkaSecurityDocsTest {

    static final String SECTION = "### Kafka with TLS and SASL";
    static final String CA_PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----";

    /** The KEY=VALUE lines of the section's first code block, and the CA the section adds with kubectl patch. */
    static Map<String, String> documentedVariables() {
        String docs = Repo.read("docs/deployment.md");
        assertThat(docs).contains(SECTION);
        String section = docs.substring(docs.indexOf(SECTION));
        String block =
                section.substring(section.indexOf("```sh\n") + 6, section.indexOf("\n```", section.indexOf("```sh")));
        Map<String, String> variables = new LinkedHashMap<>();
        block.lines()
                .forEach(line ->
                        variables.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1)));
        assertThat(section).contains("SPRING_KAFKA_SSL_TRUSTSTORECERTIFICATES");
        variables.put("SPRING_KAFKA_SSL_TRUSTSTORECERTIFICATES", CA_PEM);
        return variables;
    }

    static KafkaProperties bind(Map<String, String> variables) {
        MutablePropertySources sources = new MutablePropertySources();
        sources.addFirst(new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.copyOf(variables)));
        return new Binder(ConfigurationPropertySources.from(sources))
                .bind("spring.kafka", KafkaProperties.class)
                .get();
    }

    @Test
    void theDocumentedVariablesTurnOnSaslSslWithScramForEveryKafkaClient() {
        KafkaProperties kafka = bind(documentedVariables());
        for (Map<String, Object> client : List.of(
                kafka.buildProducerProperties(), kafka.buildConsumerProperties(), kafka.buildAdminProperties())) {
            assertThat(client)
                    .containsEntry("security.protocol", "SASL_SSL")
                    .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry("ssl.truststore.type", "PEM")
                    .containsEntry("ssl.truststore.certificates", CA_PEM);
            assertThat(String.valueOf(client.get("sasl.jaas.config")))
                    .startsWith("org.apache.kafka.common.security.scram.ScramLoginModule required username=")
                    .endsWith(";");
        }
    }

    @Test
    void everyServiceThatUsesKafkaAcceptsThemAsConfiguration() {
        List<String> kafkaServices = Repo.SERVICES.stream()
                .filter(service -> ServiceConfiguration.of(service).usesKafka())
                .toList();
        assertThat(kafkaServices)
                .as("the gateway too: its outbox relay produces gateway.events")
                .containsExactlyInAnyOrder(
                        "gateway",
                        "payment-links-service",
                        "subscriptions-service",
                        "webhook-service",
                        "chain-watcher",
                        "notification-service");
        for (String service : kafkaServices) {
            for (String variable : documentedVariables().keySet()) {
                assertThat(ServiceConfiguration.of(service).explain(variable))
                        .as(service + " " + variable)
                        .isNotNull();
            }
        }
    }
}
