package dev.cryptopay.gateway.outage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.gateway.support.GatewayInstance;
import dev.cryptopay.gateway.support.MerchantKey;
import dev.cryptopay.gateway.support.SignedRequest;
import dev.cryptopay.testsupport.PostgresServer;
import dev.cryptopay.testsupport.RestartablePostgres;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.EntityExchangeResult;

/**
 * The gateway's own PostgreSQL (merchants and keys; a real server started here so it can be restarted) goes down and
 * comes back. Under load every answer is a success or a 503 with {@code Retry-After}, never a 500 or a hang; after
 * idling through the restart the first requests succeed (no stale pooled connection is used). The key cache is made
 * short so that nearly every request asks the database.
 */
class DatabaseRestartTest {

    private static RestartablePostgres postgres;
    private static GatewayInstance gateway;
    private static MerchantKey key;
    private static final AtomicInteger requests = new AtomicInteger();

    @BeforeAll
    static void start() {
        postgres = RestartablePostgres.start();
        postgres.createDatabase("gateway_restart");
        PostgresServer server = postgres.server("gateway restart test");
        gateway = GatewayInstance.start(Map.of(
                "spring.r2dbc.url", server.r2dbcUrl("gateway_restart"),
                "spring.r2dbc.username", server.user(),
                "spring.r2dbc.password", server.password(),
                "spring.flyway.url", server.jdbcUrl("gateway_restart"),
                "spring.flyway.user", server.user(),
                "spring.flyway.password", server.password(),
                "gateway.keys.cache-ttl", "20ms",
                "gateway.rate-limit.enabled", "false"));
        key = gateway.admin().newMerchantKey();
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        postgres.close();
    }

    @Test
    void aRestartUnderLoadAnswers503WithRetryAfterNeverA500() throws Exception {
        List<Integer> statuses = new CopyOnWriteArrayList<>();
        List<String> unavailable = new CopyOnWriteArrayList<>();
        AtomicBoolean loading = new AtomicBoolean(true);
        Thread load = new Thread(() -> {
            while (loading.get()) {
                EntityExchangeResult<byte[]> result = list();
                statuses.add(result.getStatus().value());
                if (result.getStatus().value() == 503) {
                    unavailable.add(result.getResponseHeaders().getFirst("Retry-After") + " "
                            + new String(result.getResponseBody()));
                }
            }
        });
        load.start();
        Thread.sleep(500);
        postgres.restart();
        long recoveredBy = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (list().getStatus().value() != 200) {
            assertThat(System.nanoTime())
                    .as("recovered within 10 s of the restart")
                    .isLessThan(recoveredBy);
            Thread.sleep(100);
        }
        loading.set(false);
        load.join();

        assertThat(statuses).as("only successes and 503s").allMatch(status -> status == 200 || status == 503);
        assertThat(statuses).contains(200);
        assertThat(unavailable)
                .allMatch(answer -> answer.startsWith("2 ") && answer.contains("key_registry_unavailable"));
    }

    @Test
    void afterIdlingThroughARestartTheFirstRequestsSucceed() throws Exception {
        assertThat(list().getStatus().value()).isEqualTo(200);

        postgres.restart();
        Thread.sleep(100); // longer than the key cache's TTL: the next lookups go to the database

        // Nothing was sent meanwhile: every pooled connection is stale, and none of them may reach a client.
        for (int i = 0; i < 12; i++) {
            assertThat(list().getStatus().value())
                    .as("request %d after the restart", i)
                    .isEqualTo(200);
            Thread.sleep(30);
        }
    }

    /** A signed read forwarded to the echo upstream; the counter keeps every request distinct for the replay guard. */
    private static EntityExchangeResult<byte[]> list() {
        return SignedRequest.of("GET", "/payment_links?n=" + requests.incrementAndGet())
                .send(gateway.client(), gateway.baseUrl(), key)
                .expectBody()
                .returnResult();
    }
}
