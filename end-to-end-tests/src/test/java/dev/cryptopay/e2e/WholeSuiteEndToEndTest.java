package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.await;
import static dev.cryptopay.e2e.SuiteStack.awaitDeliveriesOf;
import static dev.cryptopay.e2e.SuiteStack.createLink;
import static dev.cryptopay.e2e.SuiteStack.deliveriesOf;
import static dev.cryptopay.e2e.SuiteStack.httpGet;
import static dev.cryptopay.e2e.SuiteStack.linkIds;
import static dev.cryptopay.e2e.SuiteStack.register;
import static dev.cryptopay.e2e.SuiteStack.send;
import static dev.cryptopay.e2e.SuiteStack.sleep;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalRequest;
import dev.cryptopay.auth.internal.InternalTokenSigner;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SandboxCredentials;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * The whole suite as separate processes — gateway, payment-links-service, subscriptions-service, webhook-service,
 * PostgreSQL and a Kafka broker — started by the local-stack launcher, and used only the way merchants use it:
 * signed requests to the gateway, signed webhooks to their endpoints. The only call that does not go through the
 * gateway is the chain watcher's transaction report, which the gateway never exposes.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WholeSuiteEndToEndTest {

    private static LocalStack stack;
    private static SandboxCredentials first;
    private static SandboxCredentials second;
    private static SignedClient firstClient;
    private static SignedClient secondClient;

    @BeforeAll
    static void startSuite() {
        stack = SuiteStack.get();
        first = stack.newMerchant("First Shop", Mode.TEST);
        second = stack.newMerchant("Second Shop", Mode.TEST);
        firstClient = new SignedClient(stack.baseUrl(), first);
        secondClient = new SignedClient(stack.baseUrl(), second);
    }

    @Test
    @Order(1)
    void paymentLinkWalkThroughTheGatewayMatchesTheInterface() {
        HttpResponse<String> created = firstClient.post(
                "/payment_links",
                "{\"payment_name\":\"Coffee\",\"amount\":10.5,\"currency\":\"USDC\",\"order_id\":\"e2e-walk\"}");
        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode link = JSON.readTree(created.body()).get("data");
        String id = link.get("id").asString();
        assertThat(link.get("payment_status").asString()).isEqualTo("pending");
        assertThat(link.get("is_test").asBoolean()).isTrue();
        assertThat(link.get("payment_url").asString()).endsWith("/payment_link?payment_id=" + id);

        JsonNode list = JSON.readTree(
                        firstClient.get("/payment_links?search=coffee&limit=5").body())
                .get("data");
        assertThat(list.get("data"))
                .extracting(item -> item.get("id").asString())
                .contains(id);
        assertThat(list.get("pagination").get("per_page").asInt()).isEqualTo(5);

        JsonNode read =
                JSON.readTree(firstClient.get("/payment_links/" + id).body()).get("data");
        assertThat(read.get("summary").get("total_transactions").asInt()).isZero();

        HttpResponse<String> deleted = firstClient.delete("/payment_links/" + id);
        assertThat(deleted.statusCode()).isEqualTo(200);
        JsonNode cancelled = JSON.readTree(deleted.body()).get("data");
        assertThat(cancelled.get("payment_status").asString()).isEqualTo("cancelled");
        assertThat(cancelled.get("is_active").asBoolean()).isFalse();

        HttpResponse<String> unsigned = httpGet(stack.baseUrl() + "/payment_links");
        assertThat(unsigned.statusCode()).isEqualTo(401);
    }

    @Test
    @Order(2)
    void paymentEventsReachTheEndpointSignedAndInOrder() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String secret = register(
                    firstClient, receiver.url(), List.of("payment.created", "payment.pending", "payment.completed"));

            String id = createLink(firstClient, "Hat", "25");
            awaitDeliveriesOf(receiver, id, 1);
            report(id, "0xe2e01", "pending");
            awaitDeliveriesOf(receiver, id, 2);
            report(id, "0xe2e01", "confirmed");
            awaitDeliveriesOf(receiver, id, 3);

            // Only this link's events: an event of an earlier link may also arrive, since subscriptions are matched
            // when the webhook service reads the event, which can be after this endpoint was registered.
            List<WebhookReceiver.Received> deliveries = deliveriesOf(receiver, id);
            assertThat(deliveries)
                    .extracting(d -> JSON.readTree(d.body()).get("type").asString())
                    .containsExactly("payment.created", "payment.pending", "payment.completed");
            for (WebhookReceiver.Received delivery : deliveries) {
                assertThat(delivery.header("X-Service-Signature"))
                        .isEqualTo(WebhookReceiver.hmacHex(secret, delivery.body()));
                byte[] prefix = (delivery.header("X-Service-Timestamp") + ".").getBytes(StandardCharsets.UTF_8);
                byte[] signed = new byte[prefix.length + delivery.body().length];
                System.arraycopy(prefix, 0, signed, 0, prefix.length);
                System.arraycopy(delivery.body(), 0, signed, prefix.length, delivery.body().length);
                assertThat(delivery.header("X-Service-Timestamped-Signature"))
                        .isEqualTo(WebhookReceiver.hmacHex(secret, signed));
                JsonNode body = JSON.readTree(delivery.body());
                assertThat(body.get("id").asString()).isEqualTo(delivery.header("X-Service-Event-Id"));
                assertThat(body.get("livemode").asBoolean()).isFalse();
                assertThat(body.get("data").get("id").asString()).isEqualTo(id);
            }
            JsonNode completed = JSON.readTree(deliveries.get(2).body()).get("data");
            assertThat(completed.get("status").asString()).isEqualTo("completed");
            assertThat(completed.get("transaction_hash").asString()).isEqualTo("0xe2e01");
        }
    }

    @Test
    @Order(3)
    void aReceiverThatAnswers500GetsTheSameEventAgainOnTheShortSchedule() {
        try (WebhookReceiver receiver = new WebhookReceiver().failFirst(1)) {
            register(secondClient, receiver.url(), List.of("payment.created"));

            String id = createLink(secondClient, "Retry me", "3");
            awaitDeliveriesOf(receiver, id, 2);

            List<WebhookReceiver.Received> deliveries = deliveriesOf(receiver, id);
            assertThat(deliveries.get(1).header("X-Service-Event-Id"))
                    .isEqualTo(deliveries.get(0).header("X-Service-Event-Id"));
            assertThat(deliveries.get(1).body()).isEqualTo(deliveries.get(0).body());
            sleep(Duration.ofSeconds(2));
            assertThat(deliveriesOf(receiver, id))
                    .as("delivered once the receiver answered 200")
                    .hasSize(2);
        }
    }

    @Test
    @Order(4)
    void theSecondMerchantSeesNoneOfTheFirstMerchantsObjectsOrEvents() {
        try (WebhookReceiver firstReceiver = new WebhookReceiver();
                WebhookReceiver secondReceiver = new WebhookReceiver()) {
            register(firstClient, firstReceiver.url(), List.of("payment.created"));
            register(secondClient, secondReceiver.url(), List.of("payment.created"));

            String firstLink = createLink(firstClient, "Private", "1");
            awaitDeliveriesOf(firstReceiver, firstLink, 1);

            assertThat(secondClient.get("/payment_links/" + firstLink).statusCode())
                    .isEqualTo(404);
            assertThat(secondClient.delete("/payment_links/" + firstLink).statusCode())
                    .isEqualTo(404);
            JsonNode secondList = JSON.readTree(
                            secondClient.get("/payment_links?search=Private").body())
                    .get("data");
            assertThat(secondList.get("data")).isEmpty();
            sleep(Duration.ofSeconds(2));
            assertThat(secondReceiver.received())
                    .extracting(
                            d -> JSON.readTree(d.body()).get("data").get("id").asString())
                    .doesNotContain(firstLink);
            JsonNode secondEndpoints =
                    JSON.readTree(secondClient.get("/webhook-endpoints").body()).get("data");
            assertThat(secondEndpoints).extracting(e -> e.get("url").asString()).doesNotContain(firstReceiver.url());
        }
    }

    @Test
    @Order(5)
    void aBrokerRestartDuringWritesLosesNoEvent() {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            register(firstClient, receiver.url(), List.of("payment.created"));
            Set<String> created = new LinkedHashSet<>();
            created.add(createLink(firstClient, "Before outage", "1"));

            stack.stopKafka();
            for (int i = 0; i < 10; i++) {
                created.add(createLink(firstClient, "During outage " + i, "1"));
            }
            stack.startKafka();
            created.add(createLink(firstClient, "After outage", "1"));

            await(
                    "all " + created.size() + " links delivered",
                    Duration.ofMinutes(2),
                    () -> linkIds(receiver).containsAll(created));
        }
    }

    @Test
    @Order(6)
    void aWebhookServiceKilledDuringABacklogOfAThousandEventsDeliversEveryOneAfterRestart() throws Exception {
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            register(secondClient, receiver.url(), List.of("payment.created"));
            Set<String> created = java.util.concurrent.ConcurrentHashMap.newKeySet();
            var pool = Executors.newFixedThreadPool(8);
            List<Future<?>> writes = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                int n = i;
                writes.add(pool.submit(() -> created.add(createLink(secondClient, "Backlog " + n, "1"))));
            }
            await(
                    "some deliveries under way",
                    Duration.ofMinutes(2),
                    () -> receiver.received().size() >= 50);
            stack.killService("webhook-service");
            for (Future<?> write : writes) {
                write.get();
            }
            pool.shutdown();
            assertThat(created).hasSize(1000);
            stack.startService("webhook-service");

            await(
                    "all 1000 events delivered",
                    Duration.ofMinutes(4),
                    () -> linkIds(receiver).containsAll(created));
        }
    }

    // ---- helpers ----

    /**
     * The chain watcher's report, straight to the service's internal route with the chain watcher's own token over
     * the exact body sent. The gateway's key opens no such route, and a token made for another service opens nothing.
     */
    private static void report(String linkId, String txHash, String status) {
        String path = "/internal/payment_links/" + linkId + "/transactions";
        // One transfer of the link's own token (log index 0 of the transaction), as chain-watcher names it.
        String token = JSON.readTree(firstClient.get("/payment_links/" + linkId).body())
                .get("data")
                .get("token_contract")
                .asString()
                .toLowerCase(Locale.ROOT);
        byte[] body = ("{\"network\":\"Ethereum\",\"tx_hash\":\"" + txHash + "\",\"log_index\":0,\"token_contract\":\""
                        + token + "\",\"payer_address\":\"0xPAYER\",\"crypto_amount\":25,\"status\":\"" + status
                        + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        InternalRequest signed = InternalRequest.of("POST", path, null, body);
        InternalTokenSigner gateway = InternalTokenSigner.parse(InternalCallers.GATEWAY, stack.gatewayPrivateKey());
        String service = InternalCallers.PAYMENT_LINKS_SERVICE;
        assertThat(send(reportRequest(path, gateway.issue(service, signed, Instant.now()), body))
                        .statusCode())
                .as("a gateway token on the transactions route")
                .isEqualTo(403);
        InternalTokenSigner chainWatcher =
                InternalTokenSigner.parse(InternalCallers.CHAIN_WATCHER, stack.chainWatcherPrivateKey());
        assertThat(send(reportRequest(
                                path,
                                chainWatcher.issue(InternalCallers.SUBSCRIPTIONS_SERVICE, signed, Instant.now()),
                                body))
                        .statusCode())
                .as("the chain watcher's token for subscriptions-service")
                .isEqualTo(401);
        HttpResponse<String> response =
                send(reportRequest(path, chainWatcher.issue(service, signed, Instant.now()), body));
        assertThat(response.statusCode()).as(response.body()).isIn(200, 201);
        // the gateway never exposes this route
        assertThat(firstClient.post(path, "{}").statusCode()).isEqualTo(404);
    }

    private static HttpRequest reportRequest(String path, String token, byte[] body) {
        return HttpRequest.newBuilder(URI.create(stack.serviceUrl("payment-links-service") + path))
                .header(InternalHeaders.INTERNAL_AUTH, token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }
}
