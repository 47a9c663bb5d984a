package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.await;
import static dev.cryptopay.e2e.SuiteStack.deliveriesOf;
import static dev.cryptopay.e2e.SuiteStack.httpGet;
import static dev.cryptopay.e2e.SuiteStack.register;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A customer pays a payment link on the dev chain from the checkout page in a real browser (Debian's Chromium driven by
 * playwright-core, see {@code browser/checkout-walk.mjs}), with a browser wallet the script injects; the chain watcher
 * sees the transfer, the page turns to paid over its event stream, and the merchant's endpoint receives
 * {@code payment.pending} then {@code payment.completed}, signed. Screenshots of each state are kept in
 * {@code target/checkout-screenshots/}.
 */
class CheckoutPaymentEndToEndTest {

    private static final Path SCREENSHOTS = Path.of("target", "checkout-screenshots");
    private static final Duration WALK_LIMIT = Duration.ofMinutes(3);

    private static LocalStack stack;
    private static SignedClient merchant;

    @BeforeAll
    static void startSuite() {
        stack = SuiteStack.get();
        merchant = new SignedClient(stack.baseUrl(), stack.newMerchant("Checkout Shop", Mode.TEST));
    }

    @Test
    void aCustomerPaysALinkFromTheCheckoutPageWithABrowserWallet() throws Exception {
        DevChain chain = stack.devChain()
                .orElseThrow(() ->
                        new AssertionError("the stack runs without its dev chain: Node.js 20 and npm are needed"));
        HttpResponse<String> keyed = merchant.send(
                "PUT",
                "/payment_links/receiving_key",
                "{\"extended_public_key\":\"" + NodeTools.freshReceivingKey() + "\"}");
        assertThat(keyed.statusCode()).as(keyed.body()).isEqualTo(201);

        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String secret = register(merchant, receiver.url(), List.of("payment.pending", "payment.completed"));
            HttpResponse<String> created = merchant.post(
                    "/payment_links",
                    "{\"payment_name\":\"Concert ticket\",\"amount\":2.5,\"currency\":\"USDC\","
                            + "\"success_url\":\"https://shop.example/thanks\"}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            JsonNode link = JSON.readTree(created.body()).get("data");
            String id = link.get("id").asString();
            String paymentUrl = link.get("payment_url").asString();
            String deposit = link.get("deposit_address").asString();
            assertThat(paymentUrl).startsWith(stack.baseUrl().replace("/api/v1", "/checkout/"));

            // Without JavaScript the page already shows everything a customer needs.
            String plain = page(paymentUrl);
            assertThat(plain).contains("data-state=\"awaiting_payment\"", deposit, "2.5", "USDC", "<svg");

            String payer = chain.accounts().get(2);
            chain.mint(DevTokens.USDC, payer, new BigInteger("2500000"));
            JsonNode walk = NodeTools.runWalk(
                    "checkout-walk.mjs",
                    WALK_LIMIT,
                    paymentUrl,
                    chain.rpcUrl(),
                    payer,
                    SCREENSHOTS.toAbsolutePath().toString());

            assertThat(walk.get("states").values().stream().map(JsonNode::asString))
                    .containsExactly("awaiting_payment", "detected", "paid");
            assertThat(walk.get("depositAddress").asString()).isEqualTo(deposit);
            assertThat(walk.get("paymentUri").asString())
                    .isEqualTo(link.get("payment_uri").asString());
            assertThat(walk.get("qrVisible").asBoolean()).isTrue();
            assertThat(walk.get("redirectedTo").asString()).isEqualTo("https://shop.example/thanks");
            assertThat(walk.get("announcer").asString()).isEqualTo("polite");
            assertThat(walk.get("walletCalls").values().stream().map(JsonNode::asString))
                    .contains("eth_requestAccounts", "eth_sendTransaction");
            assertThat(walk.get("consoleErrors").values()).isEmpty();
            if (walk.has("sentMessage")) {
                // Seen before the page moved on: the hash shortened in the sentence, whole in data-transaction.
                JsonNode sent = walk.get("sentMessage");
                assertThat(sent.get("text").asString())
                        .matches("Payment sent \\(transaction 0x[0-9a-f]{4}…[0-9a-f]{4}\\)\\. .*");
                assertThat(sent.get("overflows").asBoolean()).isFalse();
                assertThat(sent.get("transaction").asString()).matches("0x[0-9a-f]{64}");
            }
            assertThat(chain.tokenBalance(DevTokens.USDC, deposit)).isEqualTo(new BigInteger("2500000"));
            for (String state : List.of("1-awaiting-payment", "2-detected", "3-paid")) {
                assertThat(SCREENSHOTS.resolve(state + ".png")).isNotEmptyFile();
            }

            JsonNode paid =
                    JSON.readTree(merchant.get("/payment_links/" + id).body()).get("data");
            assertThat(paid.get("payment_status").asString()).isEqualTo("completed");
            assertThat(paid.get("summary").get("total_amount_received_crypto").decimalValue())
                    .isEqualByComparingTo("2.5");
            assertThat(page(paymentUrl)).contains("data-state=\"paid\"");

            await(
                    "payment.pending and payment.completed",
                    Duration.ofSeconds(60),
                    () -> deliveriesOf(receiver, id).size() >= 2);
            List<WebhookReceiver.Received> deliveries = deliveriesOf(receiver, id);
            assertThat(deliveries)
                    .extracting(d -> JSON.readTree(d.body()).get("type").asString())
                    .containsExactly("payment.pending", "payment.completed");
            for (WebhookReceiver.Received delivery : deliveries) {
                assertThat(delivery.header("X-Service-Signature"))
                        .isEqualTo(WebhookReceiver.hmacHex(secret, delivery.body()));
                JsonNode data = JSON.readTree(delivery.body()).get("data");
                assertThat(data.get("network").asString()).isEqualTo("Local dev chain");
                assertThat(data.get("transaction_hash").asString()).startsWith("0x");
            }
        }
    }

    private static String page(String url) {
        HttpResponse<String> response = httpGet(url);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }
}
