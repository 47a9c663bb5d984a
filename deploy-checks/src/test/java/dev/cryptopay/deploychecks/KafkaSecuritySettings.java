package dev.cryptopay.deploychecks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;

/**
 * Spring Boot's Kafka security settings, which docs/deployment.md ("Kafka with TLS and SASL") has every service that
 * uses Kafka take from its Secret, and the Spring Boot configuration metadata that proves such properties exist.
 */
final class KafkaSecuritySettings {

    /** {@code spring.kafka.properties} is a map (any Kafka client property, e.g. {@code sasl.mechanism}). */
    static final Set<String> PROPERTIES = Set.of(
            "spring.kafka.security.protocol",
            "spring.kafka.properties",
            "spring.kafka.ssl.trust-store-type",
            "spring.kafka.ssl.trust-store-certificates",
            "spring.kafka.ssl.trust-store-location",
            "spring.kafka.ssl.trust-store-password");

    private KafkaSecuritySettings() {}

    /** What the one variable of {@code source} binds among {@link #PROPERTIES}, or null. */
    static String explain(ConfigurationPropertySource source) {
        for (String property : PROPERTIES) {
            ConfigurationPropertyName name = ConfigurationPropertyName.of(property);
            boolean binds = source.getConfigurationProperty(name) != null
                    || (property.equals("spring.kafka.properties")
                            && ((IterableConfigurationPropertySource) source)
                                    .stream().anyMatch(name::isAncestorOf));
            if (binds) {
                return "binds Spring Boot's " + property;
            }
        }
        return null;
    }

    /** Names of every property in the Spring Boot configuration metadata on the class path. */
    static Set<String> springBootMetadataProperties() {
        Set<String> names = new TreeSet<>();
        Pattern name = Pattern.compile("\"name\"\\s*:\\s*\"([^\"]+)\"");
        try {
            Enumeration<URL> files = KafkaSecuritySettings.class
                    .getClassLoader()
                    .getResources("META-INF/spring-configuration-metadata.json");
            for (URL url : Collections.list(files)) {
                try (InputStream in = url.openStream()) {
                    Matcher matcher = name.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    while (matcher.find()) {
                        names.add(matcher.group(1));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }
}
