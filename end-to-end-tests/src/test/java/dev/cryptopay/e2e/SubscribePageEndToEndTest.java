package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.await;
import static dev.cryptopay.e2e.SuiteStack.httpGet;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.io.IOException;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;

/**
 * A customer subscribes from the page its invitation link opens, through the gateway, in a real browser (Debian's
 * Chromium driven by playwright-core, see {@code browser/subscribe-walk.mjs}) with a browser wallet the script
 * injects: the page without JavaScript, a wallet on another network, a wallet without the token, then the enrolment
 * (approve, subscribe, enrol), the chain watcher's confirmation, a second period collected after moving the chain's
 * time, and the cancellation from the wallet. The merchant's markup in the plan's description and the customer's name
 * stays text. Screenshots at desktop and phone widths are kept in {@code target/subscribe-screenshots/}.
 */
class SubscribePageEndToEndTest {

    private static final Path SCREENSHOTS = Path.of("target", "subscribe-screenshots");
    private static final Duration WALK_LIMIT = Duration.ofMinutes(6);
    /** An hour per period: the walk moves the chain's clock by one period to collect the second. */
    private static final long INTERVAL = 3600;

    private static final String HOSTILE_DESCRIPTION =
            "Fresh beans \"><img src=x onerror=alert(1)> <script>alert(2)</script>";
    private static final String HOSTILE_CUSTOMER = "Ada <script>alert(3)</script>";

    private static LocalStack stack;
    private static SignedClient merchant;

    @BeforeAll
    static void startSuite() {
        stack = SuiteStack.get();
        merchant = new SignedClient(stack.baseUrl(), stack.newMerchant("Subscribe Page Shop", Mode.TEST));
    }

    @Test
    void aCustomerSubscribesFromItsInvitationPageAndCancelsWithABrowserWallet() throws Exception {
        DevChain chain = stack.devChain()
                .orElseThrow(() ->
                        new AssertionError("the stack runs without its dev chain: Node.js 20 and npm are needed"));
        // A destination nobody else pays, so its balance counts exactly this subscription's payments.
        String destination = Keys.toChecksumAddress("0x" + HexFormat.of().formatHex(randomBytes(20)));
        String planId = signedPlan(destination);
        HttpResponse<String> invited = merchant.post(
                "/subscriber/",
                JSON.writeValueAsString(Map.of(
                        "subscription_plan_id", planId,
                        "customer_name", HOSTILE_CUSTOMER,
                        "customer_email", "ada@example.com")));
        assertThat(invited.statusCode()).as(invited.body()).isEqualTo(201);
        JsonNode subscriber = JSON.readTree(invited.body());
        String subscriberId = subscriber.get("id").asString();
        String pageUrl = subscriber.get("subscription_link_url").asString();
        assertThat(pageUrl).isEqualTo(stack.gatewayUrl() + "/checkout/subscribe?subscriber_id=" + subscriberId);

        // Through the gateway, without JavaScript: the whole page, its headers, and the merchant's markup as text.
        HttpResponse<String> page = httpGet(pageUrl);
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
                .contains("script-src 'self'")
                .doesNotContain("unsafe-inline");
        assertThat(page.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        assertThat(page.body())
                .contains("data-state=\"invitation\"", "10 USDC every hour", "id=\"calldata-subscribe\"")
                .contains("data-verified=\"true\"")
                .contains(
                        "Fresh beans &quot;&gt;&lt;img src=x onerror=alert(1)&gt; &lt;script&gt;alert(2)&lt;/script&gt;")
                .contains("For Ada &lt;script&gt;alert(3)&lt;/script&gt;")
                .doesNotContain("<img src=x")
                .doesNotContain("<script>alert");
        assertThat(httpGet(stack.gatewayUrl() + "/checkout/subscribe?subscriber_id=" + UUID.randomUUID())
                        .statusCode())
                .isEqualTo(404);
        assertThat(httpGet(stack.gatewayUrl() + "/checkout/subscribe?subscriber_id=nope")
                        .statusCode())
                .isEqualTo(400);
        assertThat(httpGet(stack.gatewayUrl() + "/checkout/subscribe/status?subscriber_id=" + subscriberId)
                        .body())
                .contains("\"state\":\"invitation\"");

        String wallet = chain.accounts().get(4);
        String keeper = chain.accounts().get(0);
        String empty = Keys.toChecksumAddress("0x" + HexFormat.of().formatHex(randomBytes(20)));
        chain.mint(DevTokens.USDC, wallet, DevTokens.USDC.baseUnits("100"));
        JsonNode walk = NodeTools.runWalk(
                "subscribe-walk.mjs",
                WALK_LIMIT,
                pageUrl,
                chain.rpcUrl(),
                wallet,
                empty,
                keeper,
                String.valueOf(INTERVAL),
                SCREENSHOTS.toAbsolutePath().toString());

        assertThat(walk.at("/noScript/state").asString()).isEqualTo("invitation");
        assertThat(walk.at("/noScript/byHandOpen").asBoolean()).isTrue();
        assertThat(walk.at("/noScript/formVisible").asBoolean()).isTrue();
        assertThat(walk.at("/noScript/approveCalldata").asString()).startsWith("0x095ea7b3");

        assertThat(walk.at("/problems/wrongNetwork/problem").asString()).isEqualTo("wrong_network");
        assertThat(walk.at("/problems/wrongNetwork/text").asString()).contains("Local dev chain");
        assertThat(walk.at("/problems/wrongNetwork/sent").asBoolean()).isFalse();
        assertThat(walk.at("/problems/insufficientBalance/problem").asString()).isEqualTo("insufficient_balance");
        assertThat(walk.at("/problems/insufficientBalance/text").asString())
                .contains("holds 0 USDC", "needs 10 USDC", "Nothing was sent");
        assertThat(walk.at("/problems/insufficientBalance/sent").asBoolean()).isFalse();

        assertThat(walk.at("/invitation/merchantName").asString())
                .as("the merchant's name, as the gateway forwards it")
                .isEqualTo("Offered by Subscribe Page Shop");
        assertThat(walk.at("/invitation/description").asString()).isEqualTo(HOSTILE_DESCRIPTION);
        assertThat(walk.at("/invitation/customer").asString()).isEqualTo("For " + HOSTILE_CUSTOMER);
        assertThat(walk.at("/invitation/interval").asString()).isEqualTo("Billed every hour.");
        assertThat(walk.at("/invitation/signature").asString()).isEqualTo("true");
        assertThat(walk.at("/invitation/byHandOpen").asBoolean())
                .as("with a wallet, the by-hand instructions are folded away")
                .isFalse();
        assertThat(walk.at("/invitation/phoneOverflows").asBoolean()).isFalse();

        assertThat(walk.get("states").values().stream().map(JsonNode::asString))
                .contains("invitation", "active", "cancelled");
        assertThat(walk.at("/announced").asString()).isEqualTo("Subscription active");
        assertThat(walk.at("/active/paidPeriods").asString()).isEqualTo("1");
        assertThat(walk.at("/active/payments").asInt()).isEqualTo(1);
        assertThat(walk.at("/active/phoneOverflows").asBoolean()).isFalse();
        assertThat(walk.at("/second/paidPeriods").asString()).isEqualTo("2");
        assertThat(walk.at("/second/transactions").size()).isEqualTo(2);
        assertThat(walk.at("/cancelMessage").asString()).startsWith("Cancellation sent (transaction 0x");
        assertThat(walk.at("/cancelled/terminal").asString()).isEqualTo("true");
        assertThat(walk.at("/cancelled/cancelButtons").asInt()).isZero();
        assertThat(walk.at("/cancelled/payments").asInt()).isEqualTo(2);

        // The wallet sent exactly prepare's approve, then subscribe, then cancel.
        List<String> calls = walk.get("walletCalls").values().stream()
                .map(JsonNode::asString)
                .toList();
        assertThat(calls.stream().filter("eth_sendTransaction"::equals)).hasSize(3);
        assertThat(walk.get("dialogs").values()).as("no injected script ran").isEmpty();
        assertThat(walk.get("consoleErrors").values())
                .as("console errors; failed requests: " + walk.get("failedRequests"))
                .isEmpty();
        assertThat(chain.tokenBalance(DevTokens.USDC, destination)).isEqualTo(new BigInteger("20000000"));
        for (String shot : List.of(
                "0-no-javascript-desktop",
                "0-no-javascript-phone",
                "1-invitation-desktop",
                "1-invitation-phone",
                "2-wrong-network-phone",
                "3-insufficient-balance-phone",
                "5-active-desktop",
                "5-active-phone",
                "6-second-payment-desktop",
                "6-second-payment-phone",
                "7-cancelled-desktop",
                "7-cancelled-phone")) {
            assertThat(SCREENSHOTS.resolve(shot + ".png")).isNotEmptyFile();
        }

        // The merchant sees the same: cancelled, two periods paid.
        await(
                "the merchant's view of the cancellation",
                Duration.ofSeconds(30),
                () -> JSON.readTree(merchant.get("/subscriber/" + subscriberId).body())
                        .get("status")
                        .asString()
                        .equals("cancelled"));
        JsonNode link = JSON.readTree(
                        merchant.get("/subscriber/" + subscriberId).body())
                .get("subscription_link");
        assertThat(link.get("paid_periods").asInt()).isEqualTo(2);
        assertThat(link.get("wallet_address").asString()).isEqualToIgnoringCase(wallet);
    }

    /** A plan of 10 USDC an hour without trial, signed by the dev chain's first account as the merchant's wallet. */
    private static String signedPlan(String destination) throws IOException {
        ECKeyPair key = ECKeyPair.create(
                Numeric.toBigInt("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"));
        Map<String, Object> terms = new LinkedHashMap<>();
        terms.put("merchant", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        terms.put("destination", destination);
        terms.put("token", "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512");
        terms.put("amount", "10000000");
        terms.put("interval", INTERVAL);
        terms.put("max_arrears", 0);
        terms.put("auto_cancel_after_missed", 3);
        terms.put("name", "Walk Coffee Club");
        terms.put("description", HOSTILE_DESCRIPTION);
        HttpResponse<String> typed = merchant.post("/subscriptions/plans/typed-data", JSON.writeValueAsString(terms));
        assertThat(typed.statusCode()).as(typed.body()).isEqualTo(200);
        JsonNode typedData = JSON.readTree(typed.body()).get("typed_data");
        Sign.SignatureData signature = Sign.signTypedData(JSON.writeValueAsString(typedData), key);
        Map<String, Object> signed = new LinkedHashMap<>(terms);
        signed.put("plan_nonce", typedData.get("message").get("planNonce").asLong());
        signed.put(
                "merchant_sig",
                Numeric.toHexString(signature.getR())
                        + Numeric.toHexStringNoPrefix(signature.getS())
                        + Numeric.toHexStringNoPrefix(signature.getV()));
        HttpResponse<String> created = merchant.post("/subscriptions/plans/", JSON.writeValueAsString(signed));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return JSON.readTree(created.body()).get("id").asString();
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }
}
