package dev.cryptopay.testsupport;

import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Turns the Kafka server's own loggers down to WARN when Logback is the SLF4J backend, so an in-JVM broker does not
 * bury a test's output under thousands of INFO lines (the server logs its whole config and every partition change).
 * Client loggers ({@code org.apache.kafka.clients}) are left alone. The level can be changed with the system property
 * {@value #LEVEL_PROPERTY} (e.g. {@code INFO} when debugging the broker itself).
 *
 * <p>Reflection keeps Logback optional for this module. Spring Boot re-initialises Logback when an application
 * context starts, which resets these levels; {@code logging.level.kafka=WARN} in a test's properties covers that.
 */
final class KafkaServerLogLevels {

    static final String LEVEL_PROPERTY = "testsupport.kafka.server.log.level";

    private static final List<String> SERVER_LOGGERS = List.of(
            "kafka",
            "state.change.logger",
            "org.apache.kafka.controller",
            "org.apache.kafka.coordinator",
            "org.apache.kafka.image",
            "org.apache.kafka.metadata",
            "org.apache.kafka.network",
            "org.apache.kafka.queue",
            "org.apache.kafka.raft",
            "org.apache.kafka.security",
            "org.apache.kafka.server",
            "org.apache.kafka.snapshot",
            "org.apache.kafka.storage");

    private KafkaServerLogLevels() {}

    static void quietenServerLoggers() {
        String level = System.getProperty(LEVEL_PROPERTY, "WARN");
        try {
            for (String name : SERVER_LOGGERS) {
                Object logger = LoggerFactory.getLogger(name);
                Class<?> loggerClass = logger.getClass();
                if (!loggerClass.getName().equals("ch.qos.logback.classic.Logger")) {
                    return;
                }
                Class<?> levelClass = Class.forName("ch.qos.logback.classic.Level", true, loggerClass.getClassLoader());
                Object logbackLevel =
                        levelClass.getMethod("toLevel", String.class).invoke(null, level);
                loggerClass.getMethod("setLevel", levelClass).invoke(logger, logbackLevel);
            }
        } catch (ReflectiveOperationException | LinkageError e) {
            // Only cosmetic: the broker works the same with its default log levels.
        }
    }
}
