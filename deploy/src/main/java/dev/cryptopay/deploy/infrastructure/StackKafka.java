package dev.cryptopay.deploy.infrastructure;

import dev.cryptopay.deploy.StackStartException;
import dev.cryptopay.deploy.console.DisplayPath;
import dev.cryptopay.deploy.console.StackConsole;
import dev.cryptopay.deploy.datadir.StackLayout;
import dev.cryptopay.testsupport.KraftBroker;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/** The stack's Kafka: test-support's in-JVM {@link KraftBroker} with its data in {@code <data dir>/kafka}. */
public final class StackKafka {

    /** Topics created up front so the webhook consumer sees them at once rather than on its next metadata refresh. */
    public static final List<String> EVENT_TOPICS = List.of("payment-links.events", "subscriptions.events");

    private StackKafka() {}

    /**
     * Starts the broker on 127.0.0.1:port and says so.
     *
     * @throws StackStartException naming the port, the data directory and the launcher's log
     */
    public static KraftBroker start(StackLayout layout, int port, StackConsole console) {
        long begin = System.nanoTime();
        Path kafkaDir = layout.kafkaDir();
        try {
            KraftBroker broker = KraftBroker.start(kafkaDir, port);
            console.kafkaReady(broker.bootstrapServers(), (System.nanoTime() - begin) / 1e9, kafkaDir);
            return broker;
        } catch (RuntimeException e) {
            throw new StackStartException(
                    "Kafka did not start on 127.0.0.1:" + port + " with its data in " + DisplayPath.of(kafkaDir) + ": "
                            + RootCause.message(e) + ". If the port was taken meanwhile, free it or set "
                            + "STACK_KAFKA_PORT; if the data is damaged, delete " + DisplayPath.of(kafkaDir)
                            + " (stored events are lost). Details in " + DisplayPath.of(layout.launcherLog()) + ".",
                    e);
        }
    }

    /** Creates the {@link #EVENT_TOPICS} that do not exist yet. */
    public static void createTopics(KraftBroker kafka, StackLayout layout) {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                30_000))) {
            var existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = EVENT_TOPICS.stream()
                    .filter(t -> !existing.contains(t))
                    .map(t -> new NewTopic(t, 3, (short) 1))
                    .toList();
            if (!missing.isEmpty()) {
                admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new StackStartException(
                        "Kafka at " + kafka.bootstrapServers() + " did not create the event topics: "
                                + RootCause.message(e) + ". Details in " + DisplayPath.of(layout.launcherLog()) + ".",
                        e);
            }
        }
    }
}
