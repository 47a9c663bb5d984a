package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.await;
import static dev.cryptopay.e2e.SuiteStack.awaitPaidPeriods;
import static dev.cryptopay.e2e.SuiteStack.httpGet;
import static dev.cryptopay.e2e.SuiteStack.publicPost;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SandboxCredentials;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import tools.jackson.databind.JsonNode;

/**
 * A wallet that knows nothing of this project's code ({@code wallet/independent-wallet.mjs}: ethers and the
 * subscription contract's pinned interface) does, with only the API's answers, what a merchant's and a customer's
 * wallets do: signs a plan, enrols, is billed twice by the keeper with no one else calling the contract, and
 * cancels; a payment report with a made-up transaction never marks anything paid.
 */
class IndependentWalletEndToEndTest {

    private static final long INTERVAL = 3_600;

    @TempDir
    Path temp;

    @Test
    void aPlanSignedEnrolledBilledTwiceByTheKeeperAndCancelledFromAnIndependentWallet() throws Exception {
        IndependentWallet wallet = IndependentWallet.in(temp);
        LocalStack stack = SuiteStack.get();
        DevChain chain = stack.devChain().orElseThrow(() -> new AssertionError("the suite runs with its dev chain"));
        Credentials merchantWallet = IndependentWallet.fundedKey(chain);
        Credentials customerWallet = IndependentWallet.fundedKey(chain);
        chain.mint(DevTokens.USDC, customerWallet.getAddress(), new BigInteger("50000000"));
        SandboxCredentials merchant = stack.newMerchant("Independent Wallet Shop", Mode.TEST);
        SignedClient api = new SignedClient(stack.baseUrl(), merchant);

        // The merchant's wallet signs the typed data the API answers.
        Map<String, Object> terms = new LinkedHashMap<>();
        terms.put("merchant", merchantWallet.getAddress());
        terms.put(
                "destination",
                Keys.toChecksumAddress(
                        Credentials.create(Keys.createEcKeyPair()).getAddress()));
        terms.put("token", DevTokens.USDC.address());
        terms.put("amount", "5000000");
        terms.put("interval", INTERVAL);
        terms.put("max_arrears", 600);
        terms.put("name", "Independent");
        HttpResponse<String> typed = api.post("/subscriptions/plans/typed-data", JSON.writeValueAsString(terms));
        assertThat(typed.statusCode()).as(typed.body()).isEqualTo(200);
        JsonNode typedData = JSON.readTree(typed.body()).get("typed_data");
        String signature = wallet.run(
                        "sign-plan",
                        "--key",
                        IndependentWallet.hex(merchantWallet),
                        "--typed-data",
                        wallet.file("typed", typedData))
                .get("signature")
                .asString();
        Map<String, Object> signed = new LinkedHashMap<>(terms);
        signed.put("plan_nonce", typedData.get("message").get("planNonce").asLong());
        signed.put("merchant_sig", signature);
        HttpResponse<String> created = api.post("/subscriptions/plans/", JSON.writeValueAsString(signed));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode merchantPlan = JSON.readTree(created.body());
        String planId = merchantPlan.get("id").asString();
        HttpResponse<String> invited = api.post("/subscriber/", "{\"subscription_plan_id\":\"" + planId + "\"}");
        String subscriberId = JSON.readTree(invited.body()).get("id").asString();

        // The customer's wallet: the public plan and the invitation's kit, then its own approve and subscribe.
        JsonNode plan = JSON.readTree(httpGet(stack.baseUrl() + "/public/subscriptions/plans/" + planId)
                .body());
        JsonNode kit = JSON.readTree(httpGet(stack.baseUrl() + "/public/subscriber/prepare?subscriber_id="
                        + subscriberId + "&wallet_address=" + customerWallet.getAddress() + "&periods=3")
                .body());
        JsonNode subscribed = wallet.subscribe(
                chain,
                customerWallet,
                plan,
                kit.get("ref").asString(),
                kit.get("subscription_contract").asString(),
                3);
        Map<String, Object> approval = Map.of(
                "token_address", DevTokens.USDC.address(),
                "amount_approved", "15000000",
                "network_name", kit.get("network_name").asString(),
                "approval_hash", subscribed.get("approve").asString());
        HttpResponse<String> enrolled = publicPost(
                "/public/subscriptions/link/",
                JSON.writeValueAsString(Map.of(
                        "subscription_plan_id", planId,
                        "subscriber_id", subscriberId,
                        "wallet_address", customerWallet.getAddress(),
                        "subscribe_hash", subscribed.get("subscribe").asString(),
                        "approvals", List.of(approval))));
        assertThat(enrolled.statusCode()).as(enrolled.body()).isEqualTo(201);
        String linkPath = "/subscriptions/link/"
                + JSON.readTree(enrolled.body()).get("id").asString();
        awaitPaidPeriods(api, chain, linkPath, 1); // the subscribe transaction collected the first period

        // Nobody but the keeper calls collect: each period it pulls is recorded once the watcher confirms it.
        for (int period = 2; period <= 3; period++) {
            chain.increaseTime(INTERVAL);
            awaitPaidPeriods(api, chain, linkPath, period);
        }
        JsonNode billed = JSON.readTree(api.get(linkPath).body());
        assertThat(billed.get("chain_subscription_id").asString())
                .isEqualTo(subscribed.get("subscription_id").asString());
        assertThat(billed.get("subscription_transactions"))
                .extracting(payment -> payment.get("amount").asString())
                .containsExactly("5000000", "5000000", "5000000");

        // A made-up transaction is never a payment.
        HttpResponse<String> forged = publicPost(
                "/public/subscriptions/link/payment",
                JSON.writeValueAsString(Map.of(
                        "sub_link_id", billed.get("id").asString(),
                        "merchant_key", merchant.publishableKey(),
                        "tx_hash", "0x" + "5a".repeat(32),
                        "network_id", merchantPlan.get("network_id").asString(),
                        "currency_id", merchantPlan.get("currency_id").asString(),
                        "amount_paid", "5000000",
                        "wallet_used", customerWallet.getAddress())));
        assertThat(forged.statusCode()).as(forged.body()).isEqualTo(409);
        assertThat(JSON.readTree(api.get(linkPath).body()).get("paid_periods").asInt())
                .isEqualTo(3);

        // The customer leaves through the contract; the service follows.
        wallet.run(
                "cancel",
                "--rpc",
                chain.rpcUrl(),
                "--key",
                IndependentWallet.hex(customerWallet),
                "--contract",
                kit.get("subscription_contract").asString(),
                "--id",
                subscribed.get("subscription_id").asString());
        await("the subscriber cancelled", Duration.ofSeconds(60), () -> {
            chain.mine(1);
            return JSON.readTree(api.get("/subscriber/" + subscriberId).body())
                    .get("status")
                    .asString()
                    .equals("cancelled");
        });
        assertThat(JSON.readTree(api.get(linkPath).body()).get("is_active").asBoolean())
                .isFalse();
    }
}
