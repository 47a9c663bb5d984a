package dev.cryptopay.webhooks.operations;

import dev.cryptopay.service.background.BackgroundLoop;
import dev.cryptopay.webhooks.config.WebhookProperties;
import dev.cryptopay.webhooks.intake.EventIntake;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Measures consumer lag the way on-call reads it: for every partition the group has committed on, the log end
 * offset minus the committed offset ({@code webhook.consumer.lag}, records, tagged group/topic/partition). Measured
 * from the broker, so it keeps rising even when this consumer is stuck or gone. Also exposes the age of the newest
 * event read ({@code webhook.consumer.newest.event.age}, seconds): with lag above zero, how far behind intake is.
 */
@Component
public class ConsumerLagMonitor extends BackgroundLoop {

    private final KafkaAdmin kafkaAdmin;
    private final WebhookProperties properties;
    private final EventIntake intake;
    private final Clock clock;
    private final MultiGauge lag;
    private final AtomicLong totalLag = new AtomicLong();
    private volatile Admin admin;

    public ConsumerLagMonitor(
            KafkaAdmin kafkaAdmin,
            WebhookProperties properties,
            EventIntake intake,
            Clock clock,
            MeterRegistry meters) {
        this.kafkaAdmin = kafkaAdmin;
        this.properties = properties;
        this.intake = intake;
        this.clock = clock;
        this.lag = MultiGauge.builder("webhook.consumer.lag")
                .baseUnit("records")
                .description("Records not yet consumed, per partition")
                .register(meters);
        Gauge.builder("webhook.consumer.lag.total", totalLag, AtomicLong::get)
                .baseUnit("records")
                .description("Records not yet consumed, all partitions")
                .register(meters);
        Gauge.builder("webhook.consumer.newest.event.age", this, ConsumerLagMonitor::newestEventAgeSeconds)
                .baseUnit("seconds")
                .description("Age of the newest event read from Kafka")
                .register(meters);
    }

    /** Reads committed and end offsets and refreshes the gauges; answers lag per partition. */
    public Map<TopicPartition, Long> measure() throws Exception {
        Admin client = admin();
        Map<TopicPartition, OffsetAndMetadata> committed = client.listConsumerGroupOffsets(properties.consumerGroup())
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
                                        "group", properties.consumerGroup(),
                                        "topic", entry.getKey().topic(),
                                        "partition",
                                                Integer.toString(entry.getKey().partition())),
                                entry.getValue()))
                        .toList(),
                true);
        totalLag.set(result.values().stream().mapToLong(Long::longValue).sum());
        return result;
    }

    double newestEventAgeSeconds() {
        Instant newest = intake.newestEventTime();
        return newest == null
                ? 0
                : Math.max(0, Duration.between(newest, clock.instant()).toMillis() / 1000.0);
    }

    private synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(kafkaAdmin.getConfigurationProperties());
        }
        return admin;
    }

    @Override
    protected Mono<Duration> runOnce() {
        return Mono.fromCallable(this::measure)
                .subscribeOn(Schedulers.boundedElastic())
                .thenReturn(properties.metricsInterval());
    }

    @Override
    protected Duration delayAfterFailure() {
        return properties.metricsInterval();
    }

    @Override
    public void stop() {
        super.stop();
        Admin client = admin;
        admin = null;
        if (client != null) {
            client.close(Duration.ofSeconds(2));
        }
    }
}
