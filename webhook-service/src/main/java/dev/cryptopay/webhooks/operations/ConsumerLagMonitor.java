package dev.cryptopay.webhooks.operations;

import dev.cryptopay.service.background.BackgroundLoop;
import dev.cryptopay.service.kafka.ConsumerGroupLag;
import dev.cryptopay.webhooks.config.WebhookProperties;
import dev.cryptopay.webhooks.intake.EventIntake;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Measures the delivery group's consumer lag ({@link ConsumerGroupLag}: {@code webhook.consumer.lag}, records, tagged
 * group/topic/partition, and {@code webhook.consumer.lag.total}) every {@code metrics-interval}. Also exposes the age
 * of the newest event read ({@code webhook.consumer.newest.event.age}, seconds): with lag above zero, how far behind intake is.
 */
@Component
public class ConsumerLagMonitor extends BackgroundLoop {

    private final WebhookProperties properties;
    private final EventIntake intake;
    private final Clock clock;
    private final ConsumerGroupLag lag;

    public ConsumerLagMonitor(
            KafkaAdmin kafkaAdmin,
            WebhookProperties properties,
            EventIntake intake,
            Clock clock,
            MeterRegistry meters) {
        this.properties = properties;
        this.intake = intake;
        this.clock = clock;
        this.lag = new ConsumerGroupLag(
                kafkaAdmin.getConfigurationProperties(),
                properties.consumerGroup(),
                "webhook.consumer.lag",
                "webhook.consumer.lag.total",
                meters);
        Gauge.builder("webhook.consumer.newest.event.age", this, ConsumerLagMonitor::newestEventAgeSeconds)
                .baseUnit("seconds")
                .description("Age of the newest event read from Kafka")
                .register(meters);
    }

    /** Reads committed and end offsets and refreshes the gauges; answers lag per partition. */
    public Map<TopicPartition, Long> measure() throws Exception {
        return lag.measure();
    }

    double newestEventAgeSeconds() {
        Instant newest = intake.newestEventTime();
        return newest == null
                ? 0
                : Math.max(0, Duration.between(newest, clock.instant()).toMillis() / 1000.0);
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
        lag.close();
    }
}
