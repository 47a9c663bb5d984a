package dev.cryptopay.chainwatcher.watch;

import dev.cryptopay.service.background.BackgroundLoop;
import dev.cryptopay.service.kafka.ConsumerGroupLag;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The lag of the watcher's intake ({@link PaymentEventConsumer}'s group on {@code payment-links.events}) every 15 s
 * ({@code chain-watcher.consumer-lag-interval}):
 * {@code chain.watcher.consumer.lag} (records, per partition) and {@code chain.watcher.consumer.lag.total}. A link is
 * watched only once its event is read, so lag here is a payment that cannot be seen yet; on-call reads it next to the
 * chains' head lag.
 */
@Component
class IntakeLagMonitor extends BackgroundLoop {

    private final ConsumerGroupLag lag;
    private final Duration interval;

    IntakeLagMonitor(
            KafkaAdmin kafkaAdmin,
            @Value("${chain-watcher.consumer-group:chain-watcher}") String group,
            @Value("${chain-watcher.consumer-lag-interval:15s}") Duration interval,
            MeterRegistry meters) {
        this.lag = new ConsumerGroupLag(
                kafkaAdmin.getConfigurationProperties(),
                group,
                "chain.watcher.consumer.lag",
                "chain.watcher.consumer.lag.total",
                meters);
        this.interval = interval;
    }

    /** Measures now, per partition the group committed on (for tests); the loop does it every interval (15 s). */
    Map<TopicPartition, Long> measure() throws Exception {
        return lag.measure();
    }

    @Override
    protected Mono<Duration> runOnce() {
        return Mono.fromCallable(this::measure)
                .subscribeOn(Schedulers.boundedElastic())
                .thenReturn(interval);
    }

    @Override
    protected Duration delayAfterFailure() {
        return interval;
    }

    @Override
    public void stop() {
        super.stop();
        lag.close();
    }
}
