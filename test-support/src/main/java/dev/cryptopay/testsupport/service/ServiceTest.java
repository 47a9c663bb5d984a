package dev.cryptopay.testsupport.service;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextCustomizerFactories;

/**
 * One running service for a test class, on real infrastructure: the service on a random port with a
 * {@code WebTestClient}, the shared PostgreSQL database named here (created once per test JVM; the service's Flyway
 * migrates it), the shared Kafka broker, the internal callers' test keys ({@link dev.cryptopay.testsupport.InternalTestKeys}) that {@link ServiceTestBase#as} signs with, and a
 * {@link dev.cryptopay.testsupport.MutableClock} as the service's {@code Clock}. Tests stay independent by acting as
 * fresh merchants, so every class with the same database and properties shares one Spring context.
 *
 * <pre>{@code
 * @ServiceTest(database = "payment_links", properties = "payment-links.expiry-sweep-enabled=false")
 * abstract class PaymentLinksTestBase extends ServiceTestBase { ... }
 * }</pre>
 *
 * A test's own {@code @DynamicPropertySource} or {@code properties} win over what this registers (for example a
 * dedicated broker for a test that stops it).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
@ActiveProfiles("test")
@ContextCustomizerFactories(ServiceTestInfrastructure.Factory.class)
public @interface ServiceTest {

    /** The shared test database's name (letters, digits and underscores). */
    String database();

    /** Extra Spring properties for the service, as in {@link SpringBootTest#properties()}. */
    @AliasFor(annotation = SpringBootTest.class, attribute = "properties")
    String[] properties() default {};
}
