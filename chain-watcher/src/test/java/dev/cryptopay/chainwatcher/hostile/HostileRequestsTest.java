package dev.cryptopay.chainwatcher.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.chainwatcher.ChainWatcherTestBase;
import dev.cryptopay.testsupport.hostile.HostileRequests;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;

/**
 * The shared hostile-request corpus (test-support {@code hostile/}) against the only HTTP routes the watcher serves:
 * the actuator's health, info and metrics (it takes its work from Kafka and the chain, not from requests). Each
 * answer is a 2xx or a 4xx within the time limit. These routes read only, and no table of the watcher belongs to a
 * merchant, so there is no data to compare.
 */
class HostileRequestsTest extends ChainWatcherTestBase {

    @Test
    void actuatorRoutesAnswerHostileRequestsWithA2xxOrA4xx() {
        HostileRequests.Report report = HostileRequests.to((method, uri) -> asEncoded(null, method, uri))
                .actuator()
                .ids(HttpMethod.GET, "/actuator/{id}", null)
                .ids(HttpMethod.GET, "/actuator/metrics/{id}", null)
                .write(HttpMethod.POST, "/actuator/health", "{\"a\":1}")
                .run();

        assertThat(report.cases()).isGreaterThan(200);
        assertThat(report.successes()).isGreaterThan(50);
    }
}
