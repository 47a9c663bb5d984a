package dev.cryptopay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalIdentityToken;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SandboxCredentials;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.deploy.StackOptions;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Sign;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole suite as separate processes — gateway, payment-links-service, subscriptions-service, webhook-service,
 * PostgreSQL and a Kafka broker — started by the local-stack launcher, and used only the way merchants use it:
 * signed requests to the gateway, signed webhooks to their endpoints. The only call that does not go through the
 * gateway is the chain watcher's transaction report, which the gateway never exposes.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WholeSuiteEndToEndTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static LocalStack stack;
    private static SandboxCredentials first;
    private static SandboxCredentials second;
    private static SignedClient firstClient;
    private static SignedClient secondClient;

    @BeforeAll
    static void startSuite() {
        // Generous limits: the backlog scenario creates a thousand links through the gateway in seconds.
        stack = LocalStack.start(StackOptions.forTests()
                .serviceEnv("gateway", "GATEWAY_RATELIMIT_LIMITS_PAYMENTLINKSWRITE", "100000")
                .serviceEnv("gateway", "GATEWAY_RATELIMIT_LIMITS_PAYMENTLINKSREAD", "100000")
                .serviceEnv("gateway", "GATEWAY_RATELIMIT_LIMITS_WEBHOOKS", "100000")
                .serviceEnv("subscriptions-service", "SUBSCRIPTIONS_BILLING_INTERVAL", "1s"));
        first = stack.newMerchant("First Shop", Mode.TEST);
        second = stack.newMerchant("Second Shop", Mode.TEST);
        firstClient = new SignedClient(stack.baseUrl(), first);
        secondClient = new SignedClient(stack.baseUrl(), second);
    }

    @AfterAll
    static void stopSuite() {
        if (stack != null) {
            stack.close();
        }
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

    @Test
    @Order(7)
    void aMerchantSignsAPlanWithAWalletKeyAndManagesSubscribersThroughTheGateway() throws Exception {
        // The dev chain's first account: a public development key, standing in for the merchant's wallet.
        ECKeyPair wallet = ECKeyPair.create(
                Numeric.toBigInt("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"));
        Map<String, Object> terms = new LinkedHashMap<>();
        terms.put("merchant", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        terms.put("destination", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
        terms.put("token", "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512");
        terms.put("amount", "10000000");
        // Seconds-long periods, so a missed period and the auto-cancellation happen while the test waits.
        terms.put("interval", 4);
        terms.put("max_arrears", 3);
        terms.put("auto_cancel_after_missed", 1);
        terms.put("name", "E2E Pro");

        HttpResponse<String> typed =
                firstClient.post("/subscriptions/plans/typed-data", JSON.writeValueAsString(terms));
        assertThat(typed.statusCode()).as(typed.body()).isEqualTo(200);
        JsonNode typedData = JSON.readTree(typed.body()).get("typed_data");
        Sign.SignatureData signature = Sign.signTypedData(JSON.writeValueAsString(typedData), wallet);
        Map<String, Object> signed = new LinkedHashMap<>(terms);
        signed.put("plan_nonce", typedData.get("message").get("planNonce").asLong());
        signed.put(
                "merchant_sig",
                Numeric.toHexString(signature.getR())
                        + Numeric.toHexStringNoPrefix(signature.getS())
                        + Numeric.toHexStringNoPrefix(signature.getV()));

        HttpResponse<String> created = firstClient.post("/subscriptions/plans/", JSON.writeValueAsString(signed));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode plan = JSON.readTree(created.body());
        String planId = plan.get("id").asString();
        assertThat(plan.get("digest").asString())
                .isEqualTo(JSON.readTree(typed.body()).get("digest").asString());
        assertThat(plan.get("formatted_amount").asString()).isEqualTo("10");
        assertThat(JSON.readTree(firstClient
                                .get("/subscriptions/plans/?search=e2e")
                                .body())
                        .get("plans"))
                .extracting(p -> p.get("id").asString())
                .containsExactly(planId);
        assertThat(secondClient.get("/subscriptions/plans/" + planId).statusCode())
                .isEqualTo(404);
        assertThat(firstClient
                        .send("PUT", "/subscriptions/plans/" + planId, "{\"name\":\"E2E Pro+\"}")
                        .statusCode())
                .isEqualTo(200);

        List<String> walk = List.of(
                "subscription.created",
                "subscription.activated",
                "subscription.payment.success",
                "subscription.payment.failed",
                "subscription.cancelled");
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String secret = register(firstClient, receiver.url(), walk);
            HttpResponse<String> invited = firstClient.post(
                    "/subscriber/",
                    "{\"subscription_plan_id\":\"" + planId + "\",\"customer_email\":\"ada@example.com\"}");
            assertThat(invited.statusCode()).as(invited.body()).isEqualTo(201);
            JsonNode subscriber = JSON.readTree(invited.body());
            String subscriberId = subscriber.get("id").asString();
            assertThat(subscriber.get("status").asString()).isEqualTo("invitation_sent");
            assertThat(JSON.readTree(firstClient
                                    .get("/invitations/?plan_id=" + planId)
                                    .body())
                            .get("total")
                            .asLong())
                    .isEqualTo(1);

            // The customer's wallet, through the gateway's public routes: no signature headers.
            String customerWallet = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
            HttpResponse<String> kit = httpGet(stack.baseUrl() + "/public/subscriber/prepare?subscriber_id="
                    + subscriberId + "&wallet_address=" + customerWallet + "&periods=3");
            assertThat(kit.statusCode()).as(kit.body()).isEqualTo(200);
            JsonNode approval = JSON.readTree(kit.body()).get("approval");
            assertThat(approval.get("amount").asString()).isEqualTo("30000000");
            HttpResponse<String> enrolled = publicPost(
                    "/public/subscriptions/link/",
                    JSON.writeValueAsString(Map.of(
                            "subscription_plan_id",
                            planId,
                            "subscriber_id",
                            subscriberId,
                            "wallet_address",
                            customerWallet,
                            "subscribe_hash",
                            "0x" + "ab".repeat(32),
                            "approvals",
                            List.of(Map.of(
                                    "token_address",
                                    approval.get("token").asString(),
                                    "amount_approved",
                                    approval.get("amount").asString(),
                                    "network_name",
                                    approval.get("network_name").asString())))));
            assertThat(enrolled.statusCode()).as(enrolled.body()).isEqualTo(201);
            JsonNode link = JSON.readTree(enrolled.body());

            // The merchant's backend reports the first period's payment with its merchant_key, unsigned.
            HttpResponse<String> paid = publicPost(
                    "/public/subscriptions/link/payment",
                    JSON.writeValueAsString(Map.of(
                            "sub_link_id",
                            link.get("id").asString(),
                            "merchant_key",
                            first.apiKey(),
                            "tx_hash",
                            "0x" + "cd".repeat(32),
                            "network_id",
                            plan.get("network_id").asString(),
                            "currency_id",
                            plan.get("currency_id").asString(),
                            "amount_paid",
                            "10000000",
                            "wallet_used",
                            customerWallet)));
            assertThat(paid.statusCode()).as(paid.body()).isEqualTo(201);

            // The second period goes unpaid: the scheduler misses it and, after one miss, cancels.
            await(
                    "the subscription walk's webhooks",
                    Duration.ofSeconds(60),
                    () -> receiver.received().size() >= walk.size());
            // Each event once; delivery order across events is not promised (receivers order by created_at).
            assertThat(receiver.received())
                    .extracting(delivery ->
                            JSON.readTree(delivery.body()).get("type").asString())
                    .containsExactlyInAnyOrderElementsOf(walk);
            Map<String, Instant> emitted = receiver.received().stream()
                    .map(delivery -> JSON.readTree(delivery.body()))
                    .collect(Collectors.toMap(
                            event -> event.get("type").asString(),
                            event -> Instant.parse(event.get("created_at").asString())));
            assertThat(emitted.get("subscription.activated")).isBefore(emitted.get("subscription.payment.success"));
            assertThat(emitted.get("subscription.payment.success"))
                    .isBefore(emitted.get("subscription.payment.failed"));
            assertThat(emitted.get("subscription.cancelled")).isEqualTo(emitted.get("subscription.payment.failed"));
            for (WebhookReceiver.Received delivery : receiver.received()) {
                assertThat(delivery.header("X-Service-Signature"))
                        .isEqualTo(WebhookReceiver.hmacHex(secret, delivery.body()));
                JsonNode data = JSON.readTree(delivery.body()).get("data");
                assertThat(data.get("subscriber_id").asString()).isEqualTo(subscriberId);
                assertThat(data.get("subscription_link_id").asString())
                        .isEqualTo(link.get("id").asString());
            }
            assertThat(JSON.readTree(firstClient
                                    .get("/subscriber/" + subscriberId)
                                    .body())
                            .get("status")
                            .asString())
                    .isEqualTo("cancelled");
        }

        HttpResponse<String> deprecated = firstClient.delete("/subscriptions/plans/" + planId);
        assertThat(deprecated.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(deprecated.body()).get("message").asString())
                .isEqualTo("Subscription plan deprecated successfully");
        assertThat(firstClient
                        .post("/subscriber/", "{\"subscription_plan_id\":\"" + planId + "\"}")
                        .statusCode())
                .isEqualTo(400);
        assertThat(firstClient.get("/subscriptions/link/").statusCode()).isEqualTo(200);
    }

    private static String createLink(SignedClient client, String name, String amount) {
        HttpResponse<String> response = client.post(
                "/payment_links",
                "{\"payment_name\":\"" + name + "\",\"amount\":" + amount + ",\"currency\":\"USDC\"}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return JSON.readTree(response.body()).get("data").get("id").asString();
    }

    private static String register(SignedClient client, String url, List<String> events) {
        HttpResponse<String> response =
                client.post("/webhook-endpoints", JSON.writeValueAsString(Map.of("url", url, "events", events)));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return JSON.readTree(response.body()).get("data").get("secret").asString();
    }

    /** The chain watcher's report, straight to the service's internal route with an internal token. */
    private static void report(String linkId, String txHash, String status) {
        String path = "/internal/payment_links/" + linkId + "/transactions";
        String token =
                InternalIdentityToken.fromSecret(stack.internalAuthSecret()).issue(null, "POST", path, Instant.now());
        HttpRequest request = HttpRequest.newBuilder(URI.create(stack.serviceUrl("payment-links-service") + path))
                .header(InternalHeaders.INTERNAL_AUTH, token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"network\":\"Ethereum\",\"tx_hash\":\"" + txHash
                        + "\",\"payer_address\":\"0xPAYER\",\"crypto_amount\":25,\"status\":\"" + status + "\"}"))
                .build();
        HttpResponse<String> response = send(request);
        assertThat(response.statusCode()).as(response.body()).isIn(200, 201);
        // the gateway never exposes this route
        assertThat(firstClient.post(path, "{}").statusCode()).isEqualTo(404);
    }

    private static Set<String> linkIds(WebhookReceiver receiver) {
        return receiver.received().stream()
                .map(d -> JSON.readTree(d.body()).get("data").get("id").asString())
                .collect(Collectors.toSet());
    }

    private static List<WebhookReceiver.Received> deliveriesOf(WebhookReceiver receiver, String linkId) {
        return receiver.received().stream()
                .filter(d ->
                        JSON.readTree(d.body()).get("data").get("id").asString().equals(linkId))
                .toList();
    }

    private static void awaitDeliveriesOf(WebhookReceiver receiver, String linkId, int count) {
        await(
                count + " deliveries of " + linkId,
                Duration.ofSeconds(60),
                () -> deliveriesOf(receiver, linkId).size() >= count);
    }

    /** A public route through the gateway: no signature headers. */
    private static HttpResponse<String> publicPost(String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(stack.baseUrl() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    private static HttpResponse<String> httpGet(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).GET().build());
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(request.method() + " " + request.uri() + " failed", e);
        }
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            sleep(Duration.ofMillis(200));
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
