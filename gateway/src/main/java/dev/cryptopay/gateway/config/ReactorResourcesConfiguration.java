package dev.cryptopay.gateway.config;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * Gives each application context its own Reactor Netty event loops instead of the JVM-global ones. Spring Boot's
 * default factory disposes the global loops when its context closes, which would also stop every other server in
 * the JVM: the command line run in-process, or a second gateway instance in tests, would take the first one down.
 * Boot's own factory backs off when this bean exists.
 */
@Configuration(proxyBeanMethods = false)
public class ReactorResourcesConfiguration {

    @Bean
    ReactorResourceFactory reactorResourceFactory() {
        ReactorResourceFactory factory = new ReactorResourceFactory();
        factory.setUseGlobalResources(false);
        return factory;
    }
}
