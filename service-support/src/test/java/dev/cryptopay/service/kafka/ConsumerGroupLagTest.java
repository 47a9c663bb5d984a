package dev.cryptopay.service.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.testsupport.TestKafka;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/** A group's lag is the records written past what it committed, per partition, read from the real broker. */
class ConsumerGroupLagTest {

    @Test
    void countsTheRecordsPastTheGroupsCommittedOffsetAndExportsThem() throws Exception {
        String topic = "lag-test-" + UUID.randomUUID() + ".events";
        String group = "lag-test-" + UUID.randomUUID();
        for (int i = 0; i < 5; i++) {
            TestKafka.send(topic, "merchant", "event " + i); // one key: one partition
        }
        var first = TestKafka.records(topic, 5).get(0);
        TopicPartition partition = new TopicPartition(first.topic(), first.partition());
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Map<String, Object> admin =
                Map.of("bootstrap.servers", TestKafka.shared().bootstrapServers());
        try (ConsumerGroupLag lag =
                        new ConsumerGroupLag(admin, group, "test.consumer.lag", "test.consumer.lag.total", meters);
                var consumer = new KafkaConsumer<String, String>(
                        Map.of("bootstrap.servers", TestKafka.shared().bootstrapServers(), "group.id", group),
                        new StringDeserializer(),
                        new StringDeserializer())) {
            consumer.commitSync(Map.of(partition, new OffsetAndMetadata(2)));
            assertThat(lag.measure()).containsExactly(Map.entry(partition, 3L));
            assertThat(meters.get("test.consumer.lag.total").gauge().value()).isEqualTo(3.0);
            assertThat(meters.get("test.consumer.lag")
                            .tags("group", group, "topic", topic, "partition", Integer.toString(partition.partition()))
                            .gauge()
                            .value())
                    .isEqualTo(3.0);

            consumer.commitSync(Map.of(partition, new OffsetAndMetadata(5)));
            assertThat(lag.measure()).containsExactly(Map.entry(partition, 0L));
            assertThat(meters.get("test.consumer.lag.total").gauge().value()).isZero();
        }
    }
}
