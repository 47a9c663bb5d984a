package dev.cryptopay.paymentlinks.outage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.GatewayForwarding;
import dev.cryptopay.testsupport.InternalTestKeys;
import dev.cryptopay.testsupport.RestartablePostgres;
import dev.cryptopay.testsupport.TestKafka;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The service's own PostgreSQL (a real server, started here so it can be restarted) goes down and comes back: under
 * load every answer is a success or a 503 with {@code Retry-After}, never a 500; the service recovers by itself
 * within seconds, also after idling through the restart (no stale pooled connection is handed out); nothing a
 * client was told succeeded is lost.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"payment-links.expiry-sweep-enabled=false", "outbox.poll-interval=200ms"})
@AutoConfigureWebTestClient
@ActiveProfiles("test")
class DatabaseRestartTest {

    private static final RestartablePostgres postgres = RestartablePostgres.start();

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        postgres.registerSpringProperties(registry, "payment_links_restart");
        registry.add("spring.kafka.bootstrap-servers", () -> TestKafka.shared().bootstrapServers());
        InternalTestKeys.properties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @AfterAll
    static void stopPostgres() {
        postgres.close();
    }

    @Autowired
    WebTestClient web;

    @Autowired
    DatabaseClient database;

    private final MerchantIdentity merchant = new MerchantIdentity(UUID.randomUUID(), Mode.TEST);
    private final GatewayForwarding forwarding =
            new GatewayForwarding(InternalCallers.PAYMENT_LINKS_SERVICE, Clock.systemUTC());

    @Test
    void aRestartUnderLoadAnswers503NeverA500AndLosesNothing() throws Exception {
        List<String> confirmed = new CopyOnWriteArrayList<>();
        List<Integer> statuses = new CopyOnWriteArrayList<>();
        List<String> retryAfter = new CopyOnWriteArrayList<>();
        AtomicBoolean loading = new AtomicBoolean(true);
        Thread load = new Thread(() -> {
            int n = 0;
            while (loading.get()) {
                EntityExchangeResult<byte[]> result = create("load-" + n++);
                statuses.add(result.getStatus().value());
                if (result.getStatus().value() == 201) {
                    confirmed.add(idOf(result));
                } else if (result.getStatus().value() == 503) {
                    retryAfter.add(result.getResponseHeaders().getFirst("Retry-After"));
                }
            }
        });
        load.start();
        Thread.sleep(500);
        postgres.restart();
        Thread.sleep(2000);
        long recoveredBy = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (create("probe").getStatus().value() != 201) {
            assertThat(System.nanoTime())
                    .as("recovered within 10 s of the restart")
                    .isLessThan(recoveredBy);
            Thread.sleep(100);
        }
        loading.set(false);
        load.join();

        assertThat(statuses).as("only successes and 503s").allMatch(status -> status == 201 || status == 503);
        assertThat(statuses).contains(201);
        assertThat(retryAfter).allMatch("2"::equals);
        for (String id : confirmed) {
            get("/payment_links/" + id).expectStatus().isOk();
        }
        assertThat(outboxEventsOf(confirmed))
                .as("every confirmed link's payment.created is in the outbox")
                .isEqualTo(confirmed.size());
    }

    @Test
    void afterIdlingThroughARestartTheFirstRequestsSucceed() throws Exception {
        String id = idOf(create("before"));
        get("/payment_links/" + id).expectStatus().isOk();

        postgres.restart();

        // Nothing was sent meanwhile: every pooled connection is stale, and none of them may reach a client.
        for (int i = 0; i < 12; i++) {
            get("/payment_links/" + id).expectStatus().isOk();
        }
        assertThat(create("after").getStatus().value()).isEqualTo(201);
    }

    private EntityExchangeResult<byte[]> create(String name) {
        return forwarding
                .as(web, merchant, HttpMethod.POST, "/payment_links")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"payment_name\":\"" + name + "\",\"amount\":1,\"currency\":\"USDC\"}")
                .exchange()
                .expectBody()
                .returnResult();
    }

    private WebTestClient.ResponseSpec get(String uri) {
        return forwarding.as(web, merchant, HttpMethod.GET, uri).exchange();
    }

    private long outboxEventsOf(List<String> linkIds) {
        return database.sql("SELECT count(*) AS n FROM outbox_event WHERE event_type = 'payment.created' "
                        + "AND aggregate_id = ANY(:ids)")
                .bind("ids", linkIds.toArray(String[]::new))
                .map(row -> row.get("n", Long.class))
                .one()
                .block();
    }

    private static String idOf(EntityExchangeResult<byte[]> result) {
        String text = new String(result.getResponseBody(), StandardCharsets.UTF_8);
        int start = text.indexOf("\"id\":\"") + 6;
        return text.substring(start, text.indexOf('"', start));
    }
}
