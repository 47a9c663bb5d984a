package dev.cryptopay.gateway.keys;

import dev.cryptopay.service.outbox.OutboxWriter;
import java.security.SecureRandom;
import java.time.Clock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;

/** The key registry's storage: present in the server and in the command line. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(KeyRegistryProperties.class)
public class KeysConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    SecureRandom secureRandom() {
        return new SecureRandom();
    }

    @Bean
    KeyRepository keyRepository(DatabaseClient databaseClient) {
        return new KeyRepository(databaseClient);
    }

    @Bean
    PublishableKeyRepository publishableKeyRepository(DatabaseClient databaseClient) {
        return new PublishableKeyRepository(databaseClient);
    }

    /** Revocations with their events; the events go to {@code gateway.events-topic} through the outbox. */
    @Bean
    KeyRevocations keyRevocations(
            KeyRepository keys,
            PublishableKeyRepository publishableKeys,
            OutboxWriter outbox,
            TransactionalOperator tx,
            @Value("${gateway.events-topic:gateway.events}") String topic) {
        return new KeyRevocations(keys, publishableKeys, outbox, tx, topic);
    }
}
