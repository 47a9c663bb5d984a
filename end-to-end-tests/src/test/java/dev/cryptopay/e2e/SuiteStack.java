package dev.cryptopay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.deploy.StackOptions;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one local stack every end-to-end test class of this JVM uses (starting the suite takes most of a minute), closed
 * when the JVM ends, and the small HTTP and waiting helpers the tests share. Tests stay independent by using their own
 * merchants.
 */
final class SuiteStack {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final HttpClient HTTP = HttpClient.newHttpClient();

    private static LocalStack stack;

    private SuiteStack() {}

    static synchronized LocalStack get() {
        if (stack == null) {
            // Generous limits: the backlog scenario creates a thousand links through the gateway in seconds.
            // With the dev chain and chain-watcher: the checkout and subscribe walks pay on chain.
            stack = LocalStack.start(StackOptions.forTests()
                    .devChain(true)
                    // Two confirmations, so the checkout shows the payment detected before it is paid.
                    .serviceEnv("chain-watcher", "DEV_CHAIN_CONFIRMATIONS", "2")
                    .serviceEnv("gateway", "GATEWAY_RATELIMIT_LIMITS_PAYMENTLINKSWRITE", "100000")
                    .serviceEnv("gateway", "GATEWAY_RATELIMIT_LIMITS_PAYMENTLINKSREAD", "100000")
                    .serviceEnv("gateway", "GATEWAY_RATELIMIT_LIMITS_WEBHOOKS", "100000")
                    // The dashboard walk signs up a merchant, as a visitor would.
                    .serviceEnv("gateway", "GATEWAY_SIGNUP_ENABLED", "true")
                    .serviceEnv("subscriptions-service", "SUBSCRIPTIONS_BILLING_INTERVAL", "1s"));
            LocalStack started = stack;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "suite-stack-shutdown"));
        }
        return stack;
    }

    static Set<String> linkIds(WebhookReceiver receiver) {
        return receiver.received().stream()
                .map(d -> JSON.readTree(d.body()).get("data").get("id").asString())
                .collect(Collectors.toSet());
    }

    static List<WebhookReceiver.Received> deliveriesOf(WebhookReceiver receiver, String linkId) {
        return receiver.received().stream()
                .filter(d ->
                        JSON.readTree(d.body()).get("data").get("id").asString().equals(linkId))
                .toList();
    }

    static void awaitDeliveriesOf(WebhookReceiver receiver, String linkId, int count) {
        await(
                count + " deliveries of " + linkId,
                Duration.ofSeconds(60),
                () -> deliveriesOf(receiver, linkId).size() >= count);
    }

    /** A public route through the gateway: no signature headers. */
    static HttpResponse<String> publicPost(String path, String body) {
        return publicPost(get(), path, body);
    }

    /** The same through another stack's gateway. */
    static HttpResponse<String> publicPost(LocalStack stack, String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(stack.baseUrl() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    static HttpResponse<String> httpGet(String url) {
        return send(HttpRequest.newBuilder(URI.create(url)).GET().build());
    }

    static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(request.method() + " " + request.uri() + " failed", e);
        }
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            sleep(Duration.ofMillis(200));
        }
    }

    /**
     * Mines a block a second (the dev chain mines only on transactions, and the chain watcher and its keeper act on
     * blocks) until the subscription link at {@code linkPath} counts {@code periods} paid periods. One read a second
     * keeps within the gateway's limit on subscription reads.
     */
    static void awaitPaidPeriods(SignedClient api, DevChain chain, String linkPath, int periods) {
        await(linkPath + " with " + periods + " paid periods", Duration.ofSeconds(90), () -> {
            chain.mine(1);
            sleep(Duration.ofSeconds(1));
            HttpResponse<String> link = api.get(linkPath);
            assertThat(link.statusCode()).as(link.body()).isEqualTo(200);
            return JSON.readTree(link.body()).get("paid_periods").asInt() >= periods;
        });
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static String createLink(SignedClient client, String name, String amount) {
        HttpResponse<String> response = client.post(
                "/payment_links",
                "{\"payment_name\":\"" + name + "\",\"amount\":" + amount + ",\"currency\":\"USDC\"}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return JSON.readTree(response.body()).get("data").get("id").asString();
    }

    static String register(SignedClient client, String url, List<String> events) {
        HttpResponse<String> response =
                client.post("/webhook-endpoints", JSON.writeValueAsString(Map.of("url", url, "events", events)));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return JSON.readTree(response.body()).get("data").get("secret").asString();
    }
}
