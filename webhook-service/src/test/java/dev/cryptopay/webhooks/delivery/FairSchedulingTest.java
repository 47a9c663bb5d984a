package dev.cryptopay.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import dev.cryptopay.testsupport.webhook.WebhookReceiver.Reply;
import dev.cryptopay.webhooks.WebhookTestBase;
import dev.cryptopay.webhooks.config.WebhookProperties;
import dev.cryptopay.webhooks.operations.DeliveryBacklogMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import reactor.core.publisher.Mono;

/**
 * Fair scheduling with hostile endpoints beside healthy ones, through the running service, real PostgreSQL and real
 * HTTP: a tarpit (accepts the connection, never answers) and a junk endpoint (500 with garbage, at once) cannot hold
 * back another merchant's deliveries; a merchant's endpoints together stay within the merchant's cap; caps hold over
 * two instances, which deliver each delivery once. Each pass is started the way the scheduler's loop does
 * ({@link DeliveryScheduler#startDue}); the defaults apply: 4 in flight per endpoint, 16 per merchant, 32 slots.
 */
class FairSchedulingTest extends WebhookTestBase {

    private static final String TYPE = "payment.created";
    private static final byte[] JUNK = "\u0000\u00ff<html>oops".getBytes(StandardCharsets.ISO_8859_1);

    @Autowired
    private DeliveryClaims claims;

    @Autowired
    private DeliveryAttempts attempts;

    @Autowired
    private WebhookProperties properties;

    @Autowired
    private MeterRegistry meters;

    @Autowired
    private DeliveryBacklogMetrics backlog;

    private WebhookReceiver receiver;
    private final List<Tarpit> tarpits = new ArrayList<>();
    private final List<Map.Entry<MerchantIdentity, String>> endpoints = new ArrayList<>();

    @BeforeEach
    void startReceiver() {
        receiver = new WebhookReceiver();
    }

    /** Leaves nothing due behind: hanging attempts end, the test's endpoints go (their deliveries are abandoned). */
    @AfterEach
    void cleanUp() {
        endpoints.forEach(
                endpoint -> as(endpoint.getKey(), HttpMethod.DELETE, "/webhook-endpoints/" + endpoint.getValue())
                        .exchange()
                        .expectStatus()
                        .isOk());
        tarpits.forEach(Tarpit::close);
        scheduler.drain().block();
        receiver.close();
    }

    @Test
    void aTarpitAndAJunkEndpointCannotHoldBackAnotherMerchantsDeliveries() {
        MerchantIdentity slow = newMerchant();
        MerchantIdentity junky = newMerchant();
        MerchantIdentity healthy = newMerchant();
        Tarpit tarpit = tarpit();
        receiver.otherwise(call -> call.path().equals("/junk") ? Reply.body(500, JUNK) : Reply.status(200));
        endpoint(slow, tarpit.url());
        endpoint(junky, receiver.url("/junk"));
        endpoint(healthy, receiver.url("/healthy"));
        publishEvents(slow, TYPE, 40, 40);
        publishEvents(junky, TYPE, 40, 40);
        publishEvents(healthy, TYPE, 10, 10);
        // The healthy merchant's deliveries fall due once the hostile endpoints have taken every slot they can get.
        database.sql("UPDATE webhook_delivery SET next_attempt_at = next_attempt_at + interval '10 seconds' "
                        + "WHERE merchant_id = :merchant")
                .bind("merchant", healthy.merchantId())
                .then()
                .block();

        await("the tarpit hangs on to its slots and the junk endpoint has answered", () -> {
            scheduler.startDue().block();
            return tarpit.open() >= 4 && received("/junk") == 40;
        });
        clock.advance(Duration.ofSeconds(10));
        await("every delivery to the healthy merchant succeeded", () -> {
            scheduler.startDue().block();
            return succeeded(healthy) == 10;
        });

        // The budget: all delivered while the tarpit's first attempts still hang (they end at the 5 s timeout).
        assertThat(attemptsLogged(slow)).as("tarpit attempts ended so far").isZero();
        assertThat(tarpit.mostOpen())
                .as("attempts hanging on the tarpit at once")
                .isEqualTo(4);
        assertThat(received("/healthy")).isEqualTo(10);
    }

    @Test
    void aMerchantsEndpointsTogetherStayWithinTheMerchantsCapAndTakeTurns() {
        MerchantIdentity merchant = newMerchant();
        List<Tarpit> five = List.of(tarpit(), tarpit(), tarpit(), tarpit(), tarpit());
        five.forEach(tarpit -> endpoint(merchant, tarpit.url()));
        publishEvents(merchant, TYPE, 5, 25);

        scheduler.startDue().block();
        scheduler.startDue().block(); // a second pass finds nothing more this merchant may have

        assertThat(leased(merchant)).as("attempts in flight for the merchant").isEqualTo(16);
        await("16 attempts hang", () -> five.stream().mapToInt(Tarpit::open).sum() == 16);
        assertThat(five)
                .as("each endpoint had its turn, none more than 4")
                .allSatisfy(tarpit -> assertThat(tarpit.mostOpen()).isBetween(3, 4));
        backlog.measure().block();
        assertThat(meters.get("webhook.deliveries.throttled").gauge().value())
                .as("due, waiting behind the merchant's cap")
                .isGreaterThanOrEqualTo(9);
    }

    @Test
    void twoInstancesShareTheCapsAndDeliverEachDeliveryOnce() {
        DeliveryScheduler other = new DeliveryScheduler(claims, attempts, properties, clock, meters);
        MerchantIdentity slow = newMerchant();
        Tarpit tarpit = tarpit();
        String tarpitEndpoint = endpoint(slow, tarpit.url());
        publishEvents(slow, TYPE, 10, 10);

        scheduler.startDue().block();
        other.startDue().block();

        assertThat(leased(slow))
                .as("in flight to the tarpit over both instances")
                .isEqualTo(4);
        as(slow, HttpMethod.DELETE, "/webhook-endpoints/" + tarpitEndpoint)
                .exchange()
                .expectStatus()
                .isOk();
        endpoints.removeIf(endpoint -> endpoint.getValue().equals(tarpitEndpoint));
        tarpit.close();
        Mono.zip(scheduler.drain(), other.drain()).block(); // both idle before the next deliveries exist

        List<MerchantIdentity> merchants = List.of(newMerchant(), newMerchant(), newMerchant());
        for (int i = 0; i < merchants.size(); i++) {
            endpoint(merchants.get(i), receiver.url("/once-" + i));
            publishEvents(merchants.get(i), TYPE, 20, 20);
        }
        var both = Mono.zip(scheduler.drain(), other.drain()).block();

        assertThat(both.getT1() + both.getT2()).isGreaterThanOrEqualTo(60);
        Map<String, List<String>> eventIdsByPath = receiver.received().stream()
                .filter(call -> call.path().startsWith("/once-"))
                .collect(Collectors.groupingBy(
                        WebhookReceiver.Received::path,
                        Collectors.mapping(call -> call.header(WebhookSender.EVENT_ID), Collectors.toList())));
        assertThat(eventIdsByPath).hasSize(3);
        assertThat(eventIdsByPath.values())
                .allSatisfy(ids -> assertThat(ids).hasSize(20).doesNotHaveDuplicates());
        assertThat(merchants)
                .allSatisfy(merchant -> assertThat(succeeded(merchant)).isEqualTo(20));
    }

    private Tarpit tarpit() {
        Tarpit tarpit = new Tarpit();
        tarpits.add(tarpit);
        return tarpit;
    }

    private String endpoint(MerchantIdentity merchant, String url) {
        String id = register(merchant, url, List.of(TYPE)).get("id").asString();
        endpoints.add(Map.entry(merchant, id));
        return id;
    }

    private long received(String path) {
        return receiver.received().stream()
                .filter(call -> call.path().equals(path))
                .count();
    }

    private long succeeded(MerchantIdentity merchant) {
        return count(
                "SELECT count(*) FROM webhook_delivery WHERE merchant_id = :merchant AND status = 'succeeded'",
                merchant);
    }

    private long leased(MerchantIdentity merchant) {
        return count(
                "SELECT count(*) FROM webhook_delivery WHERE merchant_id = :merchant AND status = 'pending' "
                        + "AND leased_until IS NOT NULL",
                merchant);
    }

    private long attemptsLogged(MerchantIdentity merchant) {
        return count(
                "SELECT count(*) FROM webhook_attempt a JOIN webhook_delivery d ON d.id = a.delivery_id "
                        + "WHERE d.merchant_id = :merchant",
                merchant);
    }
}
