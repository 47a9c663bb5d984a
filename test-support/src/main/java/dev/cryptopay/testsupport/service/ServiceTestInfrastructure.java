package dev.cryptopay.testsupport.service;

import dev.cryptopay.testsupport.InternalTestKeys;
import dev.cryptopay.testsupport.MutableClock;
import dev.cryptopay.testsupport.TestDatabase;
import dev.cryptopay.testsupport.TestKafka;
import dev.cryptopay.testsupport.TestPostgres;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * What {@link ServiceTest} gives the service's context: database, Kafka and internal-auth properties (the gateway and
 * the chain watcher as callers, each with its own test key pair: {@link InternalTestKeys}), and the test
 * clock. The properties sit just above the system properties, so they override the service's {@code application.yml}
 * while a test's own {@code properties} and {@code @DynamicPropertySource} values still override them. As a record
 * it is equal for equal database names, which lets Spring's test context cache share one context between classes.
 */
record ServiceTestInfrastructure(String database) implements ContextCustomizer {

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration configuration) {
        TestDatabase shared = TestPostgres.sharedDatabase(database);
        Map<String, Object> properties = new HashMap<>(Map.of(
                "spring.r2dbc.url", shared.r2dbcUrl(),
                "spring.r2dbc.username", shared.user(),
                "spring.r2dbc.password", shared.password(),
                "spring.flyway.url", shared.jdbcUrl(),
                "spring.flyway.user", shared.user(),
                "spring.flyway.password", shared.password(),
                "spring.kafka.bootstrap-servers", TestKafka.shared().bootstrapServers()));
        properties.putAll(InternalTestKeys.properties());
        context.getEnvironment()
                .getPropertySources()
                .addBefore(
                        StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
                        new MapPropertySource("service-test-infrastructure", properties));
        context.getBeanFactory().registerSingleton("clock", MutableClock.startingNow());
    }

    /** Finds {@link ServiceTest} on the test class (or a superclass) and builds the customizer from it. */
    static final class Factory implements ContextCustomizerFactory {

        @Override
        public ContextCustomizer createContextCustomizer(
                Class<?> testClass, List<ContextConfigurationAttributes> configurationAttributes) {
            ServiceTest test = TestContextAnnotationUtils.findMergedAnnotation(testClass, ServiceTest.class);
            return test == null ? null : new ServiceTestInfrastructure(test.database());
        }
    }
}
