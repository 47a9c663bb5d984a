package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.await;
import static dev.cryptopay.e2e.SuiteStack.httpGet;
import static dev.cryptopay.e2e.SuiteStack.publicPost;
import static dev.cryptopay.e2e.SuiteStack.register;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SandboxCredentials;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Sign;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;

/**
 * A merchant's subscription walk through the gateway and the dev chain: a plan signed with a wallet key (EIP-712),
 * subscribers and invitations, a customer's enrolment on the subscription contract and the public routes, the chain
 * watcher's reports turning it active and recording the first period, a payment checked with the merchant's
 * publishable key, a missed period the keeper records and the automatic cancellation on chain, each step announced
 * by a signed webhook.
 */
class SubscriptionWalkEndToEndTest {

    private static LocalStack stack;
    private static SandboxCredentials first;
    private static SignedClient firstClient;
    private static SignedClient secondClient;

    @BeforeAll
    static void startSuite() {
        stack = SuiteStack.get();
        first = stack.newMerchant("Subscription Shop", Mode.TEST);
        firstClient = new SignedClient(stack.baseUrl(), first);
        secondClient = new SignedClient(stack.baseUrl(), stack.newMerchant("Another Shop", Mode.TEST));
    }

    @Test
    void aMerchantSignsAPlanWithAWalletKeyAndManagesSubscribersThroughTheGateway() throws Exception {
        DevChain chain = stack.devChain().orElseThrow(() -> new AssertionError("the suite runs with its dev chain"));
        // The dev chain's first account: a public development key, standing in for the merchant's wallet.
        ECKeyPair wallet = ECKeyPair.create(
                Numeric.toBigInt("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"));
        Map<String, Object> terms = new LinkedHashMap<>();
        terms.put("merchant", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
        terms.put("destination", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
        terms.put("token", "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512");
        terms.put("amount", "10000000");
        // The shortest periods the contract bills (an hour, with an hour's grace): the test moves the chain's clock
        // past a period and its grace.
        terms.put("interval", 3600);
        terms.put("max_arrears", 0);
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

            // The customer's wallet, through the gateway's public routes (no signature headers) and the dev chain: it
            // sends exactly the two transactions prepare answers, then reports its subscribe transaction.
            String customerWallet = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
            // A wallet that allowed the contract nothing yet (other walks use this dev account too): the kit approves
            // the periods alone, without an approve(0) first.
            chain.sendTransaction(
                    customerWallet,
                    DevTokens.USDC.address(),
                    FunctionEncoder.encode(new Function(
                            "approve",
                            List.of(new Address(DevChain.SUBSCRIPTION_CONTRACT), new Uint256(BigInteger.ZERO)),
                            List.of())),
                    BigInteger.ZERO);
            HttpResponse<String> kit = httpGet(stack.baseUrl() + "/public/subscriber/prepare?subscriber_id="
                    + subscriberId + "&wallet_address=" + customerWallet + "&periods=3");
            assertThat(kit.statusCode()).as(kit.body()).isEqualTo(200);
            JsonNode approval = JSON.readTree(kit.body()).get("approval");
            assertThat(approval.get("amount").asString()).isEqualTo("30000000");
            chain.mint(DevTokens.USDC, customerWallet, new BigInteger("30000000"));
            String subscribeHash = null;
            for (JsonNode transaction : JSON.readTree(kit.body()).get("transactions")) {
                TransactionReceipt sent = chain.sendTransaction(
                        customerWallet,
                        transaction.get("to").asString(),
                        transaction.get("data").asString(),
                        BigInteger.ZERO);
                assertThat(sent.isStatusOK()).isTrue();
                subscribeHash = sent.getTransactionHash();
            }
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
                            subscribeHash,
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
            String linkPath = "/subscriptions/link/" + link.get("id").asString();

            // The chain watcher confirms the subscribe transaction (which also collected the first period).
            chain.mine(3);
            await(
                    "the enrolment confirmed on chain",
                    Duration.ofSeconds(60),
                    () -> JSON.readTree(firstClient.get(linkPath).body())
                                    .get("paid_periods")
                                    .asInt()
                            == 1);
            JsonNode confirmed = JSON.readTree(firstClient.get(linkPath).body());
            assertThat(confirmed.get("chain_status").asString()).isEqualTo("subscribed");

            // The merchant's backend checks the payment with its publishable key (the merchant_key customer-side
            // code carries): answered with what the chain recorded; a hash on no chain is refused.
            String payment = JSON.writeValueAsString(Map.of(
                    "sub_link_id",
                    link.get("id").asString(),
                    "merchant_key",
                    first.publishableKey(),
                    "tx_hash",
                    subscribeHash,
                    "network_id",
                    plan.get("network_id").asString(),
                    "currency_id",
                    plan.get("currency_id").asString(),
                    "amount_paid",
                    "10000000",
                    "wallet_used",
                    customerWallet));
            HttpResponse<String> paid = publicPost("/public/subscriptions/link/payment", payment);
            assertThat(paid.statusCode()).as(paid.body()).isEqualTo(200);
            assertThat(publicPost(
                                    "/public/subscriptions/link/payment",
                                    payment.replace(subscribeHash, "0x" + "cd".repeat(32)))
                            .statusCode())
                    .isEqualTo(409);

            // The wallet stops paying: the keeper's collect after the next period's grace counts it missed, and the
            // plan cancels after one miss. Time moves on the chain; nothing waits for a clock.
            chain.sendTransaction(
                    customerWallet,
                    approval.get("token").asString(),
                    FunctionEncoder.encode(new Function(
                            "approve",
                            List.of(new Address(DevChain.SUBSCRIPTION_CONTRACT), new Uint256(BigInteger.ZERO)),
                            List.of())),
                    BigInteger.ZERO);
            chain.increaseTime(3600 + 3600 + 60);

            await("the subscription walk's webhooks", Duration.ofSeconds(60), () -> {
                chain.mine(1); // the dev chain mines only on transactions: confirmations need blocks
                return receiver.received().size() >= walk.size();
            });
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
            // Each log is applied when its report arrives, in chain order (Subscribed, then Charged; Missed, then
            // Cancelled); logs applied together share a time.
            assertThat(emitted.get("subscription.activated"))
                    .isBeforeOrEqualTo(emitted.get("subscription.payment.success"));
            assertThat(emitted.get("subscription.payment.success"))
                    .isBefore(emitted.get("subscription.payment.failed"));
            assertThat(emitted.get("subscription.cancelled"))
                    .isAfterOrEqualTo(emitted.get("subscription.payment.failed"));
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
}
