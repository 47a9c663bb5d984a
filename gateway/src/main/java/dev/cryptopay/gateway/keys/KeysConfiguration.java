package dev.cryptopay.gateway.keys;

import dev.cryptopay.gateway.admin.MerchantAdmin;
import java.security.SecureRandom;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.r2dbc.core.DatabaseClient;

/** The key registry's storage and administration: present in the server and in the command line. */
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

    @Bean
    MerchantAdmin merchantAdmin(
            KeyRepository repository,
            PublishableKeyRepository publishableKeys,
            Clock clock,
            SecureRandom random,
            ObjectProvider<ApiKeyRegistry> registry) {
        return new MerchantAdmin(
                repository,
                publishableKeys,
                clock,
                random,
                revokedKey -> registry.ifAvailable(available -> available.invalidate(revokedKey)));
    }
}
