package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.await;
import static dev.cryptopay.e2e.SuiteStack.httpGet;
import static dev.cryptopay.e2e.SuiteStack.publicPost;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SandboxCredentials;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.io.IOException;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;

/**
 * A wallet that knows nothing of this project's code ({@code wallet/independent-wallet.mjs}: ethers and the
 * subscription contract's pinned interface) does, with only the API's answers, what a merchant's and a customer's
 * wallets do: signs a plan, enrols, is billed twice by the keeper with no one else calling the contract, and
 * cancels; a payment report with a made-up transaction never marks anything paid.
 */
class IndependentWalletEndToEndTest {

    private static final Path WALLET = Path.of("wallet");
    private static final long INTERVAL = 3_600;

    @TempDir
    Path temp;

    @Test
    void aPlanSignedEnrolledBilledTwiceByTheKeeperAndCancelledFromAnIndependentWallet() throws Exception {
        NodeTools.installPackages(WALLET, "ethers");
        LocalStack stack = SuiteStack.get();
        DevChain chain = stack.devChain().orElseThrow(() -> new AssertionError("the suite runs with its dev chain"));
        Credentials merchantWallet = fundedKey(chain);
        Credentials customerWallet = fundedKey(chain);
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
        String signature = wallet("sign-plan", "--key", key(merchantWallet), "--typed-data", file("typed", typedData))
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
        JsonNode subscribed = wallet(
                "subscribe",
                "--rpc",
                chain.rpcUrl(),
                "--key",
                key(customerWallet),
                "--plan",
                file("plan", plan),
                "--ref",
                kit.get("ref").asString(),
                "--contract",
                kit.get("subscription_contract").asString(),
                "--periods",
                "3");
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
        wallet(
                "cancel",
                "--rpc",
                chain.rpcUrl(),
                "--key",
                key(customerWallet),
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

    /** Mines a block per poll (the dev chain mines only on transactions) until the link counts {@code periods}. */
    private static void awaitPaidPeriods(SignedClient api, DevChain chain, String linkPath, int periods) {
        await(periods + " paid periods", Duration.ofSeconds(90), () -> {
            chain.mine(1);
            return JSON.readTree(api.get(linkPath).body()).get("paid_periods").asInt() >= periods;
        });
    }

    private JsonNode wallet(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("node", "independent-wallet.mjs"));
        command.addAll(List.of(arguments));
        Path out = Files.createTempFile(temp, "wallet", ".out");
        Path err = Files.createTempFile(temp, "wallet", ".err");
        Process process = new ProcessBuilder(command)
                .directory(WALLET.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        assertThat(process.waitFor(2, TimeUnit.MINUTES))
                .as("the wallet answers in 2 minutes")
                .isTrue();
        assertThat(process.exitValue()).as(Files.readString(err)).isZero();
        return JSON.readTree(Files.readString(out));
    }

    private String file(String name, JsonNode json) throws IOException {
        Path file = temp.resolve(name + ".json");
        Files.writeString(file, JSON.writeValueAsString(json));
        return file.toString();
    }

    private static String key(Credentials credentials) {
        return Numeric.toHexStringWithPrefixZeroPadded(
                credentials.getEcKeyPair().getPrivateKey(), 64);
    }

    /** A new key with gas only, as a wallet of someone else's would be. */
    private static Credentials fundedKey(DevChain chain) throws Exception {
        Credentials key = Credentials.create(Keys.createEcKeyPair());
        chain.sendNative(chain.accounts().get(8), key.getAddress(), BigInteger.TEN.pow(18));
        return key;
    }
}
