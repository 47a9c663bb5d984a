package dev.cryptopay.testsupport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * One real Kafka broker per JVM: Testcontainers Kafka when a Docker engine answers, otherwise a single-node KRaft
 * broker inside the JVM ({@link KraftBroker}: Kafka's own server classes, Maven Central jars only). {@code TEST_KAFKA} = {@code auto} (default),
 * {@code docker} or {@code embedded} forces one. A test that takes the broker down on purpose gets its own
 * restartable one from {@link #startDedicated(int)}.
 */
public final class TestKafka {

    private static final String CONTAINER_IMAGE = "apache/kafka:4.1.2";
    private static KafkaBroker shared;

    private TestKafka() {}

    /** The shared broker of this JVM, started on first use and stopped when the JVM exits. */
    public static synchronized KafkaBroker shared() {
        if (shared == null) {
            shared = start();
            KafkaBroker broker = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(broker::close));
            System.out.println(
                    "[test-support] Kafka for tests: " + broker.origin() + " at " + broker.bootstrapServers());
        }
        return shared;
    }

    /** Points Spring Kafka at the shared broker. */
    public static void registerSpringProperties(DynamicPropertyRegistry registry) {
        registry.add("spring.kafka.bootstrap-servers", () -> shared().bootstrapServers());
    }

    /**
     * A broker of the test's own, for tests that stop it on purpose: a real Kafka KRaft server in the JVM, in a
     * temporary directory, that {@link KraftBroker#stop()} takes down and {@link KraftBroker#restart()} brings back
     * at the same address with its topics and records — like a real broker restart. Never a container, whatever
     * {@code TEST_KAFKA} says. Close it when done: that stops it and deletes its directory.
     *
     * @param port fixed client port on 127.0.0.1, or 0 for a free port (chosen once, kept across restarts)
     */
    public static KraftBroker startDedicated(int port) {
        return KraftBroker.startInTempDir(port);
    }

    private static KafkaBroker start() {
        String choice = System.getenv().getOrDefault("TEST_KAFKA", "auto").toLowerCase(Locale.ROOT);
        String dockerFailure = null;
        if (choice.equals("auto") || choice.equals("docker")) {
            try {
                if (DockerClientFactory.instance().isDockerAvailable()) {
                    return startContainer();
                }
                dockerFailure = "no Docker engine answers";
            } catch (RuntimeException e) {
                dockerFailure = e.getMessage();
            }
            if (choice.equals("docker")) {
                throw new IllegalStateException("TEST_KAFKA=docker but Testcontainers cannot run: " + dockerFailure);
            }
        }
        try {
            return startEmbedded();
        } catch (RuntimeException | LinkageError e) {
            throw new IllegalStateException(
                    "No Kafka broker for tests. Testcontainers: "
                            + (dockerFailure == null ? "not tried" : dockerFailure) + "; in-JVM KRaft broker: " + e
                            + ". Check that port binding on 127.0.0.1 works and the Kafka jars resolved.",
                    e);
        }
    }

    /** The same in-JVM KRaft server as {@link #startDedicated(int)}, in a temporary directory it deletes on close. */
    private static KafkaBroker startEmbedded() {
        return KraftBroker.startInTempDir(0);
    }

    private static KafkaBroker startContainer() {
        KafkaContainer container = new KafkaContainer(CONTAINER_IMAGE);
        container.start();
        return new KafkaBroker() {
            @Override
            public String bootstrapServers() {
                return container.getBootstrapServers();
            }

            @Override
            public String origin() {
                return "Testcontainers " + CONTAINER_IMAGE;
            }

            @Override
            public void close() {
                container.stop();
            }
        };
    }

    /**
     * Reads {@code topic} of the shared broker from the start and answers the records with this key, in order,
     * once {@code expected} of them arrived (or after 30 s with what arrived), plus any that follow within 300 ms
     * so a test also sees records it did not expect.
     */
    public static List<ConsumerRecord<String, String>> recordsWithKey(String topic, String key, int expected) {
        return records(topic, expected, record -> key.equals(record.key()));
    }

    /** Sends one record to {@code topic} of the shared broker and waits until the broker acknowledged it. */
    public static void send(String topic, String key, String value) {
        try (var producer = new KafkaProducer<String, String>(
                Map.of("bootstrap.servers", shared().bootstrapServers(), "acks", "all"),
                new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (Exception e) {
            throw new AssertionError("publishing to " + topic + " failed", e);
        }
    }

    /** Like {@link #recordsWithKey}, for every record of the topic (in order within each partition). */
    public static List<ConsumerRecord<String, String>> records(String topic, int expected) {
        return records(topic, expected, record -> true);
    }

    /** The first {@code expected} records of the topic that {@code wanted} accepts (in order within each partition). */
    public static List<ConsumerRecord<String, String>> records(
            String topic, int expected, Predicate<ConsumerRecord<String, String>> wanted) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (var consumer = new KafkaConsumer<String, String>(
                Map.of(
                        "bootstrap.servers",
                        shared().bootstrapServers(),
                        "group.id",
                        "test-reader-" + UUID.randomUUID(),
                        "auto.offset.reset",
                        "earliest"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> {
                    if (wanted.test(record)) {
                        records.add(record);
                    }
                });
            }
            consumer.poll(Duration.ofMillis(300)).forEach(record -> {
                if (wanted.test(record)) {
                    records.add(record);
                }
            });
        }
        return records;
    }

    /** The value of a record header as UTF-8 text, or null. */
    public static String header(ConsumerRecord<String, String> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
