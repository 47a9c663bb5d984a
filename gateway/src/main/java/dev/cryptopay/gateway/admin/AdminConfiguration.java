package dev.cryptopay.gateway.admin;

import dev.cryptopay.gateway.keys.ApiKeyRegistry;
import dev.cryptopay.gateway.keys.KeyRepository;
import dev.cryptopay.gateway.keys.KeyRevocations;
import dev.cryptopay.gateway.keys.PublishableKeyRepository;
import dev.cryptopay.gateway.production.ProductionAccess;
import dev.cryptopay.service.error.ProblemExceptionHandler;
import java.security.SecureRandom;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;
import tools.jackson.databind.json.JsonMapper;

/** The admin operations, in the server and in the command line alike, and the admin API server. */
@Configuration(proxyBeanMethods = false)
public class AdminConfiguration {

    @Bean
    MerchantAdmin merchantAdmin(
            KeyRepository repository,
            PublishableKeyRepository publishableKeys,
            KeyRevocations revocations,
            Clock clock,
            SecureRandom random,
            ObjectProvider<ApiKeyRegistry> registry) {
        // The registry exists only in the server: there a revocation also drops the key from this instance's cache.
        return new MerchantAdmin(
                repository,
                publishableKeys,
                revocations,
                clock,
                random,
                revokedKey -> registry.ifAvailable(available -> available.invalidate(revokedKey)));
    }

    /** The admin API server: only in the web application and unless {@code gateway.admin.enabled=false}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnProperty(name = "gateway.admin.enabled", havingValue = "true", matchIfMissing = true)
    @EnableConfigurationProperties(AdminProperties.class)
    static class AdminServerConfiguration {

        @Bean
        AdminHandlers adminHandlers(
                MerchantAdmin admin, ProductionAccess productionAccess, JsonMapper json, AdminProperties properties) {
            return new AdminHandlers(admin, productionAccess, json, properties.token());
        }

        @Bean
        AdminServer adminServer(
                AdminProperties properties,
                AdminHandlers handlers,
                ProblemExceptionHandler problems,
                ReactorResourceFactory resources) {
            return new AdminServer(properties, handlers, problems, resources);
        }
    }
}
