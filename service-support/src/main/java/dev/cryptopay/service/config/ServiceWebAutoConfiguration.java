package dev.cryptopay.service.config;

import dev.cryptopay.service.actuator.ActuatorPathGuard;
import dev.cryptopay.service.apidocs.ApiDescriptionRoute;
import dev.cryptopay.service.error.ProblemExceptionHandler;
import dev.cryptopay.service.error.ProblemWriter;
import dev.cryptopay.service.identity.InternalAuthProperties;
import dev.cryptopay.service.identity.InternalIdentityFilter;
import dev.cryptopay.service.identity.MerchantIdentityArgumentResolver;
import dev.cryptopay.service.json.ServiceJson;
import dev.cryptopay.service.requestid.RequestIdFilter;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.util.unit.DataSize;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.reactive.result.method.annotation.ArgumentResolverConfigurer;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.json.JsonMapper;

/** Error body, request ids, the clock and (unless disabled) the gateway identity check for reactive web services. */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
public class ServiceWebAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** Snake_case records, exact decimals, strict parsing: see {@link ServiceJson}. */
    @Bean
    JsonMapperBuilderCustomizer serviceJson() {
        return ServiceJson::configure;
    }

    @Bean
    @ConditionalOnMissingBean
    ProblemWriter problemWriter(JsonMapper json) {
        return new ProblemWriter(json);
    }

    @Bean
    @ConditionalOnMissingBean
    ProblemExceptionHandler problemExceptionHandler(ProblemWriter writer) {
        return new ProblemExceptionHandler(writer);
    }

    @Bean
    @ConditionalOnMissingBean
    RequestIdFilter requestIdFilter() {
        return new RequestIdFilter();
    }

    /** Paths Spring Boot's health endpoint would answer with a 500: see {@link ActuatorPathGuard}. */
    @Bean
    @ConditionalOnMissingBean
    ActuatorPathGuard actuatorPathGuard(
            ProblemWriter problems, @Value("${management.endpoints.web.base-path:/actuator}") String actuatorBasePath) {
        return new ActuatorPathGuard(actuatorBasePath, problems);
    }

    /** {@code GET /openapi.yaml} when {@code service.api-description} names the service's OpenAPI document. */
    @Bean
    @ConditionalOnProperty("service.api-description")
    RouterFunction<ServerResponse> apiDescriptionRoute(@Value("${service.api-description}") Resource document) {
        return ApiDescriptionRoute.serving(document);
    }

    @Bean
    WebFluxConfigurer merchantIdentityArguments() {
        return new WebFluxConfigurer() {
            @Override
            public void configureArgumentResolvers(ArgumentResolverConfigurer configurer) {
                configurer.addCustomResolver(new MerchantIdentityArgumentResolver());
            }
        };
    }

    /**
     * On by default: a service never serves requests unauthenticated. A service whose configuration names a caller's
     * public keys that are not given (an unset environment variable) fails to start.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "internal-auth.enabled", havingValue = "true", matchIfMissing = true)
    @EnableConfigurationProperties(InternalAuthProperties.class)
    static class InternalAuthConfiguration {

        /** Spring's own default limit of a body held in memory, when the service sets none. */
        static final DataSize DEFAULT_MAX_BODY = DataSize.ofKilobytes(256);

        @Bean
        InternalIdentityFilter internalIdentityFilter(
                InternalAuthProperties properties,
                Clock clock,
                ProblemWriter problems,
                Environment environment,
                ObjectProvider<RequestMappingHandlerMapping> mappings) {
            // The token binds the body, so the filter reads it, within the limit the service's codecs apply.
            DataSize maxBody = Binder.get(environment)
                    .bind("spring.http.codecs.max-in-memory-size", DataSize.class)
                    .orElse(DEFAULT_MAX_BODY);
            // The service's own id is the audience its tokens must name.
            String application = environment.getProperty("spring.application.name");
            if (properties.audience() == null && application == null) {
                throw new IllegalStateException(
                        "internal-auth.audience (or spring.application.name) must name this service");
            }
            return new InternalIdentityFilter(
                    properties.verifier(application),
                    properties,
                    clock,
                    problems,
                    (int) maxBody.toBytes(),
                    mappings::orderedStream);
        }
    }
}
