package dev.cryptopay.gateway.admin;

import dev.cryptopay.service.error.ProblemExceptionHandler;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;
import tools.jackson.databind.json.JsonMapper;

/** The admin API server; only in the web application and unless {@code gateway.admin.enabled=false}. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnProperty(name = "gateway.admin.enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(AdminProperties.class)
public class AdminConfiguration {

    @Bean
    AdminHandlers adminHandlers(MerchantAdmin admin, JsonMapper json, AdminProperties properties) {
        return new AdminHandlers(admin, json, properties.token());
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
