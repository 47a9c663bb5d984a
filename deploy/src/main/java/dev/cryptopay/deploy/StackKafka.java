package dev.cryptopay.deploy;

import dev.cryptopay.testsupport.KraftBroker;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/** The stack's Kafka: test-support's {@link KraftBroker} in this JVM, data in {@code kafka/}, and the event topics. */
final class StackKafka {

    private StackKafka() {}

    static KraftBroker start(StackFiles files, int port, StackConsole console) {
        long begin = System.nanoTime();
        String data = StackConsole.path(files.kafkaDir);
        try {
            KraftBroker broker = KraftBroker.start(files.kafkaDir, port);
            console.say(String.format(
                    "Kafka ready at %s in %.1f s (data in %s)",
                    broker.bootstrapServers(), (System.nanoTime() - begin) / 1e9, data));
            return broker;
        } catch (RuntimeException e) {
            throw new StackStartException(
                    "Kafka did not start on 127.0.0.1:" + port + " with its data in " + data + ": "
                            + StackStartException.rootCause(e) + ". If the port was taken meanwhile, free it or set "
                            + "STACK_KAFKA_PORT; if the data is damaged, delete " + data + " (stored events are "
                            + "lost). Details in " + StackConsole.path(files.launcherLog) + ".",
                    e);
        }
    }

    /** The services' event topics, each written by that service's outbox relay (3 partitions, keyed by merchant). */
    static final List<String> TOPICS = List.of("payment-links.events", "subscriptions.events", "gateway.events");

    /** The event topics, created up front so the webhook consumer sees them at once, not at a metadata refresh. */
    static void createTopics(KraftBroker kafka, StackFiles files) {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                30_000))) {
            for (String topic : TOPICS) {
                try {
                    admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1)))
                            .all()
                            .get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        } catch (Exception e) {
            throw new StackStartException(
                    "Kafka at " + kafka.bootstrapServers() + " did not create the event topics: "
                            + StackStartException.rootCause(e) + ". Details in "
                            + StackConsole.path(files.launcherLog) + ".",
                    e);
        }
    }
}
