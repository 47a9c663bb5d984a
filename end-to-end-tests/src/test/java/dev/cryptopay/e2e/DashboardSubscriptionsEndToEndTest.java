package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SandboxCredentials;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A merchant uses the dashboard's subscriptions views in a real browser (Debian's Chromium driven by playwright-core,
 * see {@code browser/dashboard-subscriptions-walk.mjs}) with a browser wallet the script injects (a dev-chain account;
 * the dev chain answers its {@code eth_signTypedData_v4}): a plan refused at a field, signing without a wallet, on
 * another network and declined in the wallet (each said, no plan made), then signed and created; the plan listed; a
 * customer invited and the invitation's address copied; the customer subscribing on that page with its own wallet;
 * the subscription link shown active with its first payment; the plan deprecated. The merchant's markup stays text;
 * axe-core finds nothing serious or critical on the new pages. Screenshots at desktop and phone widths are kept in
 * {@code target/dashboard-screenshots/subscriptions-*.png}.
 */
class DashboardSubscriptionsEndToEndTest {

    private static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");
    private static final Duration WALK_LIMIT = Duration.ofMinutes(4);

    private static final String PLAN_NAME = "Roast club <img src=x onerror=alert(1)>";
    private static final String CUSTOMER = "Grace <script>alert(2)</script>";

    @Test
    void aMerchantSignsAPlanWithItsBrowserWalletInvitesACustomerAndSeesTheSubscriptionPaid() throws Exception {
        LocalStack stack = SuiteStack.get();
        DevChain chain = stack.devChain()
                .orElseThrow(() ->
                        new AssertionError("the stack runs without its dev chain: Node.js 20 and npm are needed"));
        // A merchant with a legacy RSA key (the admin API takes its public half; the private key never leaves this
        // test): the dashboard imports the PKCS#8 file and signs every call of the walk with RSA-PSS-SHA256.
        SandboxCredentials credentials =
                rsaCredentials(stack, stack.newMerchant("Subscriptions Walk Shop", Mode.TEST), Mode.TEST);
        SignedClient merchant = new SignedClient(stack.baseUrl(), credentials);
        Path keyFile = Files.createTempFile("dashboard-subscriptions", ".pem");
        Files.writeString(keyFile, credentials.privateKey());
        // The merchant's wallet only signs; the plan pays to it (no destination typed), so its balance counts the
        // first payment. The customer's wallet holds enough for the allowance's first period.
        String merchantWallet = chain.accounts().get(5);
        String customerWallet = chain.accounts().get(7);
        chain.mint(DevTokens.USDC, customerWallet, DevTokens.USDC.baseUnits("10"));
        BigInteger before = chain.tokenBalance(DevTokens.USDC, merchantWallet);

        JsonNode walk = NodeTools.runWalk(
                "dashboard-subscriptions-walk.mjs",
                WALK_LIMIT,
                stack.gatewayUrl(),
                chain.rpcUrl(),
                credentials.apiKey(),
                keyFile.toAbsolutePath().toString(),
                merchantWallet,
                customerWallet,
                SCREENSHOTS.toAbsolutePath().toString());

        assertThat(walk.get("navCurrent").asString()).isEqualTo("Subscriptions");
        assertThat(walk.get("emptyList").asString()).isEqualTo("0 plans");

        // The wallet's problems, each said in words, none of them making a plan.
        assertThat(walk.at("/walletProblems/noWallet/problem").asString()).isEqualTo("no_wallet");
        assertThat(walk.at("/walletProblems/noWallet/text").asString()).startsWith("No browser wallet was found.");
        assertThat(walk.at("/walletProblems/wrongNetwork/problem").asString()).isEqualTo("wrong_network");
        assertThat(walk.at("/walletProblems/wrongNetwork/text").asString()).contains("chain id 31337");
        assertThat(walk.at("/walletProblems/declined/problem").asString()).isEqualTo("rejected");
        assertThat(walk.at("/walletProblems/declined/text").asString())
                .isEqualTo("You declined the request in your wallet. Nothing was signed and no plan was made.");
        List<String> calls = walk.get("walletCalls").values().stream()
                .map(JsonNode::asString)
                .toList();
        assertThat(calls)
                .contains("decline:eth_signTypedData_v4", "good:eth_signTypedData_v4")
                .doesNotContain("wrong-network:eth_signTypedData_v4");

        // The API's refusal at its field, then the plan as signed: one plan, on the signing wallet's terms.
        assertThat(walk.get("valueError").asString()).startsWith("value must be a decimal number");
        assertThat(walk.get("valueInvalid").asString()).isEqualTo("true");
        String planId = walk.get("planId").asString();
        assertThat(walk.get("planPrice").asString()).startsWith("2.5 USDC every hour");
        assertThat(walk.get("planMerchant").asString()).isEqualToIgnoringCase(merchantWallet);
        assertThat(walk.get("planDestination").asString()).isEqualToIgnoringCase(merchantWallet);
        JsonNode plans = JSON.readTree(merchant.get("/subscriptions/plans").body());
        assertThat(plans.get("total").asInt())
                .as("only the signed attempt made a plan")
                .isEqualTo(1);
        JsonNode plan =
                JSON.readTree(merchant.get("/subscriptions/plans/" + planId).body());
        assertThat(plan.get("name").asString()).isEqualTo(PLAN_NAME);
        assertThat(plan.get("merchant_address").asString()).isEqualToIgnoringCase(merchantWallet);
        assertThat(plan.get("kind").asString()).isEqualTo("value");
        assertThat(plan.get("value").asString()).isEqualTo("2.5");
        assertThat(plan.get("currency").asString()).isEqualTo("USDC");
        assertThat(plan.get("interval").asLong()).isEqualTo(3600);
        assertThat(plan.get("auto_cancel_after_missed").asInt()).isEqualTo(3);
        assertThat(walk.get("listHeading").asString()).isEqualTo("1 plan");
        assertThat(walk.get("listRows").get(0).asString()).startsWith(PLAN_NAME).contains("2.5 USDC every hour");

        // The invitation: a refused e-mail at its field, then made; its address copied, and listed with the plan.
        assertThat(walk.get("emailError").asString()).contains("customer_email");
        String invitation = walk.get("invitationUrl").asString();
        assertThat(invitation).startsWith(stack.gatewayUrl() + "/checkout/subscribe?subscriber_id=");
        assertThat(walk.get("copied").asString()).isEqualTo(invitation);
        assertThat(walk.get("rowInvitationUrl").asString()).isEqualTo(invitation);
        assertThat(walk.get("subscriberRows").get(0).asString())
                .startsWith(CUSTOMER)
                .contains("Invitation sent");
        assertThat(walk.get("totalSubscribers").asString()).isEqualTo("1");

        // The customer subscribed on that page; the dashboard shows the link active with its first payment.
        assertThat(walk.get("customerPageState").asString()).isEqualTo("active");
        assertThat(walk.get("activeSubscribers").asString()).isEqualTo("1");
        assertThat(walk.get("linkRows").get(0).asString()).startsWith(CUSTOMER).contains(PLAN_NAME, "Active");
        assertThat(walk.get("linkState").asString()).isEqualTo("active");
        assertThat(walk.get("linkPaidPeriods").asString()).isEqualTo("1");
        assertThat(walk.get("linkWallet").asString()).isEqualToIgnoringCase(customerWallet);
        List<String> payments = walk.get("linkPayments").values().stream()
                .map(JsonNode::asString)
                .toList();
        assertThat(payments).hasSize(1);
        assertThat(payments.get(0)).contains("2.5 USDC", "Confirmed");
        JsonNode link = JSON.readTree(
                merchant.get("/subscriptions/link/" + walk.get("linkId").asString())
                        .body());
        // (The walk ended it at last: its state then is checked below.)
        assertThat(link.get("subscription_plan_id").asString()).isEqualTo(planId);
        assertThat(link.get("paid_periods").asInt()).isEqualTo(1);
        assertThat(link.at("/subscription_transactions/0/tx_hash").asString())
                .isEqualTo(walk.get("linkPaymentHash").asString());
        assertThat(link.at("/subscription_transactions/0/amount").asString()).isEqualTo("2500000");
        assertThat(chain.tokenBalance(DevTokens.USDC, merchantWallet).subtract(before))
                .isEqualTo(new BigInteger("2500000"));

        // Deprecated: the page says so, and the API refuses new subscribers.
        assertThat(walk.get("deprecatedStatus").asString()).isEqualTo("deprecated");
        assertThat(walk.get("inviteFormAfterDeprecation").asInt()).isZero();
        assertThat(walk.get("deprecateButtonHidden").asBoolean()).isTrue();
        HttpResponse<String> refused =
                merchant.post("/subscriber/", JSON.writeValueAsString(Map.of("subscription_plan_id", planId)));
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(refused.body()).get("code").asString()).isEqualTo("plan_deprecated");

        // Every call the dashboard signed was an RSA-PSS signature of the 2048-bit key (an Ed25519 one has 64 bytes).
        assertThat(walk.get("signatureBytes").values().stream().map(JsonNode::asInt))
                .containsExactly(256);

        // The overview: the customer's first payment among the recent subscription payments; no payment link paid.
        List<String> overviewPayments = walk.get("overviewSubscriptionPayments").values().stream()
                .map(JsonNode::asString)
                .toList();
        assertThat(overviewPayments).hasSize(1);
        assertThat(overviewPayments.get(0)).startsWith(CUSTOMER).contains(PLAN_NAME, "2.5 USDC", "Confirmed");
        assertThat(walk.get("overviewReceived").asString()).isEqualTo("No payment has been received yet.");
        assertThat(walk.get("overviewPayments").asString()).isEqualTo("No payment to a payment link yet.");

        // Billing stopped from the dashboard, then ended on chain from the merchant's wallet: the contract's cancel of
        // the link's subscription, answered by the API and sent as it was.
        JsonNode ended = JSON.readTree(
                merchant.get("/subscriptions/link/" + walk.get("linkId").asString())
                        .body());
        assertThat(walk.get("stoppedCalldata").asString())
                .isEqualTo("0xc4d252f5"
                        + ended.get("chain_subscription_id").asString().substring(2));
        assertThat(walk.get("stopButtonAfterStop").asInt()).isZero();
        assertThat(walk.get("nextPaymentAfterStop").asString())
                .as("a stopped link owes no next payment")
                .isEqualTo("None: billing is stopped");
        assertThat(walk.get("endMessage").asString()).startsWith("Sent (transaction 0x");
        assertThat(walk.get("endedState").asString()).isEqualTo("Ended on chain");
        assertThat(walk.get("endButtonAfterEnd").asInt()).isZero();
        assertThat(ended.get("chain_status").asString()).isEqualTo("ended");
        assertThat(ended.get("is_active").asBoolean()).isFalse();
        assertThat(ended.has("cancel_transaction")).isFalse();

        // Only the refusals the walk provoked; nothing injected ran; no other console error.
        assertThat(NodeTools.refusedRequests(walk))
                .containsExactlyInAnyOrder(
                        "POST /api/v1/subscriptions/plans/typed-data 400 validation_failed",
                        "POST /api/v1/subscriber 400 validation_failed");
        assertThat(walk.get("dialogs").values().stream().map(d -> d.get("type").asString()))
                .as("only the deprecation's and the stop's confirmations")
                .containsExactly("confirm", "confirm");

        // Accessibility: axe-core on every new page, nothing serious or critical; nothing wider than a phone.
        assertThat(walk.get("axe").propertyNames())
                .contains(
                        "plans-empty",
                        "plan-new",
                        "plan",
                        "plans",
                        "plan-invited",
                        "links",
                        "link",
                        "overview",
                        "link-stopped");
        NodeTools.assertPagesClean(
                walk,
                SCREENSHOTS,
                "subscriptions-",
                List.of(
                        "1-plans-empty",
                        "2-no-wallet",
                        "3-plan-refused",
                        "4-signature-declined",
                        "5-plan",
                        "6-plans",
                        "7-invited",
                        "8-links",
                        "9-link-active",
                        "10-deprecated",
                        "11-overview",
                        "12-link-stopped",
                        "13-link-ended"));
    }

    /**
     * An RSA key (2048 bits, made with the JDK) for the merchant of {@code ed25519}, registered through the gateway's
     * admin API with its public half only ({@code rsa-pss-sha256}); answers its API key and the private key as the
     * PKCS#8 PEM the dashboard's sign-in imports.
     */
    private static SandboxCredentials rsaCredentials(LocalStack stack, SandboxCredentials ed25519, Mode mode)
            throws IOException, InterruptedException, GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();
        String body = JSON.writeValueAsString(Map.of(
                "mode",
                mode.wireName(),
                "algorithm",
                "rsa-pss-sha256",
                "public_key",
                pem("PUBLIC KEY", pair.getPublic().getEncoded())));
        HttpResponse<String> created = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(
                                        stack.adminUrl() + "/admin/merchants/" + ed25519.merchantId() + "/keys"))
                                .header("Authorization", "Bearer " + stack.adminToken())
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode key = JSON.readTree(created.body());
        assertThat(key.get("algorithm").asString()).isEqualTo("rsa-pss-sha256");
        assertThat(key.has("private_key"))
                .as("the gateway keeps no RSA private key")
                .isFalse();
        return new SandboxCredentials(
                ed25519.merchantId(),
                key.get("api_key").asString(),
                ed25519.publishableKey(),
                pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }
}
