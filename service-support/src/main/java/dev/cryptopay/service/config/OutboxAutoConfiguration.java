package dev.cryptopay.service.config;

import dev.cryptopay.service.outbox.OutboxProperties;
import dev.cryptopay.service.outbox.OutboxRelay;
import dev.cryptopay.service.outbox.OutboxWriter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.reactive.TransactionalOperator;
import tools.jackson.databind.json.JsonMapper;

/**
 * The outbox writer and relay, for services that produce events ({@code outbox.enabled=true}). The relay gets its own
 * producer with the settings correctness depends on (idempotence, {@code acks=all}) fixed here, not left to
 * configuration.
 */
@AutoConfiguration(
        afterName = {
            "org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration",
            "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration"
        })
@ConditionalOnClass({DatabaseClient.class, KafkaTemplate.class})
@ConditionalOnProperty(name = "outbox.enabled", havingValue = "true")
@EnableConfigurationProperties(OutboxProperties.class)
public class OutboxAutoConfiguration {

    @Bean
    OutboxWriter outboxWriter(DatabaseClient database, JsonMapper json, OutboxRelay relay) {
        return new OutboxWriter(database, json, relay::wakeUp);
    }

    @Bean
    OutboxRelay outboxRelay(
            DatabaseClient database,
            ReactiveTransactionManager transactionManager,
            KafkaProperties kafkaProperties,
            OutboxProperties properties,
            Clock clock,
            MeterRegistry meters) {
        Map<String, Object> config = kafkaProperties.buildProducerProperties();
        int timeoutMs = (int) properties.sendTimeout().toMillis();
        config.putAll(Map.of(
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
                5,
                ProducerConfig.LINGER_MS_CONFIG,
                5,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                timeoutMs,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                timeoutMs / 2,
                ProducerConfig.MAX_BLOCK_MS_CONFIG,
                timeoutMs / 2,
                ProducerConfig.CLIENT_ID_CONFIG,
                "outbox-relay"));
        var producers = new DefaultKafkaProducerFactory<>(config, new StringSerializer(), new StringSerializer());
        return new OutboxRelay(
                database,
                TransactionalOperator.create(transactionManager),
                new KafkaTemplate<>(producers),
                properties,
                clock,
                meters);
    }
}
