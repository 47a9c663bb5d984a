package dev.cryptopay.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KraftBrokerTest {

    /** Longer than the producer's delivery timeout, so every send attempted during the outage has failed. */
    private static final Duration OUTAGE = Duration.ofMillis(4_500);

    @Test
    void restartKeepsAddressRecordsAndProducerStateAndTheSameIdempotentProducerCarriesOn() throws Exception {
        String topic = "restart-" + UUID.randomUUID();
        try (KraftBroker broker = TestKafka.startDedicated(0);
                KafkaProducer<String, String> producer = idempotentProducer(broker.bootstrapServers())) {
            String addressBeforeStop = broker.bootstrapServers();
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(topic, "key-" + i, "before-" + i))
                        .get(10, TimeUnit.SECONDS);
            }
            Map<TopicPartition, ProducerState> producerStateBeforeStop = producerStates(broker, topic);

            broker.stop();

            assertThat(broker.isRunning()).isFalse();
            assertThatThrownBy(() -> new Socket(InetAddress.getByName("127.0.0.1"), broker.port()).close())
                    .isInstanceOf(ConnectException.class);
            Future<RecordMetadata> sentDuringOutage =
                    producer.send(new ProducerRecord<>(topic, "key-outage", "during-outage"));
            assertThatThrownBy(() -> sentDuringOutage.get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TimeoutException.class);

            broker.restart();

            assertThat(broker.bootstrapServers()).isEqualTo(addressBeforeStop);
            assertThat(producerStates(broker, topic))
                    .as("the broker recovered the idempotent producer's id, epoch and sequences from its log")
                    .isEqualTo(producerStateBeforeStop);
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>(topic, "key-" + i, "after-" + i))
                        .get(10, TimeUnit.SECONDS);
            }
            Map<TopicPartition, ProducerState> producerStateAfterRestart = producerStates(broker, topic);
            assertThat(producerStateAfterRestart).hasSameSizeAs(producerStateBeforeStop);
            producerStateBeforeStop.forEach((partition, before) -> assertThat(producerStateAfterRestart.get(partition))
                    .satisfies(after -> {
                        assertThat(after.producerId()).as("same producer id").isEqualTo(before.producerId());
                        assertThat(after.producerEpoch()).as("same epoch").isEqualTo(before.producerEpoch());
                        assertThat(after.lastSequence())
                                .as("sequence continued")
                                .isGreaterThan(before.lastSequence());
                    }));
            assertThat(valuesOf(readToEnd(broker, topic)))
                    .containsExactlyInAnyOrder(
                            "before-0",
                            "before-1",
                            "before-2",
                            "before-3",
                            "before-4",
                            "after-0",
                            "after-1",
                            "after-2",
                            "after-3",
                            "after-4");
        }
    }

    /** What an outbox relay does: one producer keeps sending while the broker goes away and comes back. */
    @Test
    void aProducerSendingThroughStopAndRestartLosesNoAcknowledgedRecordAndWritesNoDuplicate() throws Exception {
        String topic = "through-restart-" + UUID.randomUUID();
        Queue<String> acknowledged = new ConcurrentLinkedQueue<>();
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean sending = new AtomicBoolean(true);
        try (KraftBroker broker = KraftBroker.startInTempDir(0);
                KafkaProducer<String, String> producer = idempotentProducer(broker.bootstrapServers())) {
            producer.send(new ProducerRecord<>(topic, "warm-up")).get(10, TimeUnit.SECONDS);
            acknowledged.add("warm-up");
            long producerId = onlyProducerId(producerStates(broker, topic));
            Thread relay = new Thread(
                    () -> {
                        for (int i = 0; sending.get(); i++) {
                            String value = "record-" + i;
                            try {
                                producer.send(new ProducerRecord<>(topic, "key-" + i % 7, value), (metadata, error) -> {
                                    if (error == null) {
                                        acknowledged.add(value);
                                    } else {
                                        failures.add(error);
                                    }
                                });
                                Thread.sleep(2);
                            } catch (InterruptedException e) {
                                return;
                            } catch (RuntimeException e) {
                                failures.add(e);
                            }
                        }
                    },
                    "relay");
            relay.start();

            Thread.sleep(500);
            broker.stop();
            Thread.sleep(OUTAGE.toMillis());
            broker.restart();
            Thread.sleep(1_000);
            sending.set(false);
            relay.join(10_000);
            producer.send(new ProducerRecord<>(topic, "after-restart")).get(10, TimeUnit.SECONDS);
            acknowledged.add("after-restart");

            assertThat(failures)
                    .isNotEmpty()
                    .allSatisfy(failure -> assertThat(failure).isInstanceOf(TimeoutException.class));
            List<String> stored = valuesOf(readToEnd(broker, topic));
            assertThat(stored).doesNotHaveDuplicates().containsAll(acknowledged);
            assertThat(onlyProducerId(producerStates(broker, topic))).isEqualTo(producerId);
        }
    }

    @Test
    void twoBrokersRunSideBySideOnTheirOwnPortsAndData() throws Exception {
        String topic = "side-by-side";
        Path firstDir;
        try (KraftBroker first = KraftBroker.startInTempDir(0);
                KraftBroker second = KraftBroker.startInTempDir(0)) {
            firstDir = first.dataDir();
            assertThat(first.port()).isNotEqualTo(second.port());
            assertThat(first.clusterId()).isNotEqualTo(second.clusterId());

            send(first.bootstrapServers(), topic, "to-first");
            send(second.bootstrapServers(), topic, "to-second");

            assertThat(valuesOf(readToEnd(first, topic))).containsExactly("to-first");
            first.stop();
            assertThat(valuesOf(readToEnd(second, topic))).containsExactly("to-second");
        }
        assertThat(firstDir)
                .as("a temp dir owned by the broker is deleted on close")
                .doesNotExist();
    }

    @Test
    void aCallerOwnedDirectoryIsFormattedOnceAndKeptAfterClose(@TempDir Path dir) throws Exception {
        int port = freePort();
        String topic = "kept";
        String clusterId;
        try (KraftBroker broker = KraftBroker.start(dir, port)) {
            assertThat(broker.bootstrapServers()).isEqualTo("127.0.0.1:" + port);
            clusterId = broker.clusterId();
            send(broker.bootstrapServers(), topic, "written-by-the-first-broker");
        }
        try (var files = Files.list(dir)) {
            assertThat(files).isNotEmpty();
        }

        try (KraftBroker reopened = KraftBroker.start(dir, port)) {
            assertThat(reopened.clusterId()).isEqualTo(clusterId);
            assertThat(valuesOf(readToEnd(reopened, topic))).containsExactly("written-by-the-first-broker");
        }
    }

    private static KafkaProducer<String, String> idempotentProducer(String bootstrapServers) {
        return new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                        ProducerConfig.ACKS_CONFIG, "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                        ProducerConfig.LINGER_MS_CONFIG, 0,
                        ProducerConfig.MAX_BLOCK_MS_CONFIG, 3_000,
                        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000,
                        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 4_000,
                        ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500),
                new StringSerializer(),
                new StringSerializer());
    }

    private static void send(String bootstrapServers, String topic, String value) throws Exception {
        try (KafkaProducer<String, String> producer = idempotentProducer(bootstrapServers)) {
            producer.send(new ProducerRecord<>(topic, value)).get(10, TimeUnit.SECONDS);
        }
    }

    /** Every record of the topic, read without a consumer group up to the end offsets. */
    private static List<ConsumerRecord<String, String>> readToEnd(KafkaBroker broker, String topic) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> endOffsets = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            List<ConsumerRecord<String, String>> received = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (endOffsets.entrySet().stream().anyMatch(end -> consumer.position(end.getKey()) < end.getValue())
                    && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(received::add);
            }
            return received;
        }
    }

    private static Map<TopicPartition, ProducerState> producerStates(KafkaBroker broker, String topic)
            throws Exception {
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            List<TopicPartition> partitions = admin
                    .describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(10, TimeUnit.SECONDS)
                    .get(topic)
                    .partitions()
                    .stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .toList();
            return admin.describeProducers(partitions).all().get(10, TimeUnit.SECONDS).entrySet().stream()
                    .filter(entry -> !entry.getValue().activeProducers().isEmpty())
                    .collect(Collectors.toMap(
                            Map.Entry::getKey,
                            entry -> entry.getValue().activeProducers().get(0)));
        }
    }

    private static long onlyProducerId(Map<TopicPartition, ProducerState> states) {
        Set<Long> ids = states.values().stream().map(ProducerState::producerId).collect(Collectors.toSet());
        assertThat(ids).hasSize(1);
        return ids.iterator().next();
    }

    private static List<String> valuesOf(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(ConsumerRecord::value).toList();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
