package dev.cryptopay.service.config;

import dev.cryptopay.service.error.ProblemExceptionHandler;
import dev.cryptopay.service.error.ProblemWriter;
import dev.cryptopay.service.identity.InternalAuthProperties;
import dev.cryptopay.service.identity.InternalIdentityFilter;
import dev.cryptopay.service.identity.MerchantIdentityArgumentResolver;
import dev.cryptopay.service.json.ServiceJson;
import dev.cryptopay.service.requestid.RequestIdFilter;
import java.time.Clock;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.result.method.annotation.ArgumentResolverConfigurer;
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

    @Bean
    WebFluxConfigurer merchantIdentityArguments() {
        return new WebFluxConfigurer() {
            @Override
            public void configureArgumentResolvers(ArgumentResolverConfigurer configurer) {
                configurer.addCustomResolver(new MerchantIdentityArgumentResolver());
            }
        };
    }

    /** On by default: a service that forgot its secret must fail to start, not serve requests unauthenticated. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = "internal-auth.enabled", havingValue = "true", matchIfMissing = true)
    @EnableConfigurationProperties(InternalAuthProperties.class)
    static class InternalAuthConfiguration {

        @Bean
        InternalIdentityFilter internalIdentityFilter(
                InternalAuthProperties properties, Clock clock, ProblemWriter problems) {
            return new InternalIdentityFilter(properties, clock, problems);
        }
    }
}
