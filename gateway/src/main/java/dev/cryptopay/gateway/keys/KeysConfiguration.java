package dev.cryptopay.gateway.keys;

import java.security.SecureRandom;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;

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
}
