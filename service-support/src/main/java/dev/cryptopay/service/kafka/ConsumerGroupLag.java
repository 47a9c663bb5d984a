package dev.cryptopay.service.kafka;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A consumer group's lag the way on-call reads it: for every partition the group has committed on, the log end offset
 * minus the committed offset. Measured from the broker, so it keeps rising even when the consumer is stuck or gone.
 * Exported under the two names the caller gives: per partition (records, tagged group/topic/partition) and in all
 * (records); {@link #measure} refreshes both. Callers spell the names out whole, so a search of the sources finds
 * every exported metric. Not thread-safe: one measuring loop calls it.
 */
public final class ConsumerGroupLag implements AutoCloseable {

    private final Map<String, Object> adminConfig;
    private final String group;
    private final MultiGauge lag;
    private final AtomicLong totalLag = new AtomicLong();
    private Admin admin;

    /**
     * @param adminConfig  the Kafka admin client's settings (Spring's {@code KafkaAdmin} configuration)
     * @param group        the consumer group
     * @param lagName      the per-partition gauge, e.g. {@code webhook.consumer.lag}
     * @param totalName    the gauge of all partitions, e.g. {@code webhook.consumer.lag.total}
     */
    public ConsumerGroupLag(
            Map<String, Object> adminConfig, String group, String lagName, String totalName, MeterRegistry meters) {
        this.adminConfig = Map.copyOf(adminConfig);
        this.group = group;
        this.lag = MultiGauge.builder(lagName)
                .baseUnit("records")
                .description("Records not yet consumed, per partition")
                .register(meters);
        Gauge.builder(totalName, totalLag, AtomicLong::get)
                .baseUnit("records")
                .description("Records not yet consumed, all partitions")
                .register(meters);
    }

    /** Reads the committed and end offsets, refreshes the gauges and answers the lag per partition. */
    public Map<TopicPartition, Long> measure() throws Exception {
        Admin client = admin();
        Map<TopicPartition, OffsetAndMetadata> committed = client.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
        var ends = client.listOffsets(latest).all().get(10, TimeUnit.SECONDS);
        Map<TopicPartition, Long> result = new HashMap<>();
        committed.forEach((partition, offset) -> {
            long end = ends.get(partition).offset();
            result.put(partition, Math.max(0, end - (offset == null ? 0 : offset.offset())));
        });
        lag.register(
                result.entrySet().stream()
                        .map(entry -> MultiGauge.Row.of(
                                Tags.of(
                                        "group", group,
                                        "topic", entry.getKey().topic(),
                                        "partition",
                                                Integer.toString(entry.getKey().partition())),
                                entry.getValue()))
                        .toList(),
                true);
        totalLag.set(result.values().stream().mapToLong(Long::longValue).sum());
        return result;
    }

    private synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(adminConfig);
        }
        return admin;
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
            admin = null;
        }
    }
}
