package dev.cryptopay.chainwatcher.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.chainwatcher.ChainWatcherTestBase;
import dev.cryptopay.testsupport.TestKafka;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The intake's lag is measured from the broker for the watcher's own group and exported for on-call: once the
 * watcher has read what payment-links-service wrote, it is back to zero.
 */
class IntakeLagMonitorTest extends ChainWatcherTestBase {

    @Autowired
    IntakeLagMonitor monitor;

    @Autowired
    MeterRegistry meters;

    @Test
    void theIntakesLagComesBackToZeroOnceItReadWhatWasWritten() {
        TestKafka.send("payment-links.events", UUID.randomUUID().toString(), "{\"type\":\"payment.created\"}");
        await("the intake committed everything written", () -> {
            try {
                var lag = monitor.measure();
                return !lag.isEmpty() && lag.values().stream().allMatch(records -> records == 0);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        assertThat(meters.get("chain.watcher.consumer.lag.total").gauge().value())
                .isZero();
        assertThat(meters.get("chain.watcher.consumer.lag")
                        .tags("group", "chain-watcher", "topic", "payment-links.events")
                        .gauges())
                .as("one gauge per partition the group committed on")
                .isNotEmpty();
    }
}
