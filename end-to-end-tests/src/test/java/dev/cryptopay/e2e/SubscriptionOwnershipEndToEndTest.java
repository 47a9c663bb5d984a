package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.awaitPaidPeriods;
import static dev.cryptopay.e2e.SuiteStack.httpGet;
import static dev.cryptopay.e2e.SuiteStack.publicPost;
import static dev.cryptopay.e2e.SuiteStack.sleep;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;

/**
 * The attacks on on-chain subscriptions, tried through the running suite on the dev chain with independent wallets
 * ({@code wallet/independent-wallet.mjs}), do no harm: a plan the platform never saw gets no keeper transaction, a
 * report of another wallet's subscribe transaction never activates a link, and a link the merchant stopped is not
 * collected a period later, while the platform's own customers are collected in the same passes (so the keeper did
 * run).
 */
class SubscriptionOwnershipEndToEndTest {

    private static final long INTERVAL = 3_600;
    private static final BigInteger AMOUNT = new BigInteger("2000000");

    @TempDir
    Path temp;

    @Test
    void theKeeperCollectsOnlyThePlatformsLiveSubscriptionsAndNoReportClaimsAnotherWallet() throws Exception {
        IndependentWallet wallet = IndependentWallet.in(temp);
        LocalStack stack = SuiteStack.get();
        DevChain chain = stack.devChain().orElseThrow(() -> new AssertionError("the suite runs with its dev chain"));
        long fromBlock = chain.blockNumber();
        SandboxCredentials merchant = stack.newMerchant("Owned Subscriptions Shop", Mode.TEST);
        SignedClient api = new SignedClient(stack.baseUrl(), merchant);
        String planId = createPlan(api);

        // Three customers sign up by themselves (prepare makes each a subscriber and its ref) and subscribe.
        Customer kept = Customer.signUp(wallet, chain, planId);
        Customer stopped = Customer.signUp(wallet, chain, planId);
        Customer claimed = Customer.signUp(wallet, chain, planId);
        String contract = kept.kit.get("subscription_contract").asString();
        String keptLink = kept.enrol(kept.subscriberId);
        String stoppedLink = stopped.enrol(stopped.subscriberId);
        awaitPaidPeriods(api, chain, keptLink, 1);
        awaitPaidPeriods(api, chain, stoppedLink, 1);

        // Someone watching the chain reports the third customer's subscribe transaction with a sign-up of its own,
        // before the customer does: its link never becomes active, the customer's does.
        String thief =
                signUpKit(planId, claimed.key.getAddress()).get("subscriber_id").asString();
        String thiefLink = claimed.enrol(thief);
        String claimedLink = claimed.enrol(claimed.subscriberId);
        awaitPaidPeriods(api, chain, claimedLink, 1);

        // The merchant stops the second customer's link (the chain still holds its subscription and allowance).
        HttpResponse<String> stop = api.send("PUT", stoppedLink, "{\"is_active\":false}");
        assertThat(stop.statusCode()).as(stop.body()).isEqualTo(200);

        // A wallet the platform never saw signs its own plan for the contract and subscribes eight times.
        Credentials stranger = IndependentWallet.fundedKey(chain);
        chain.mint(DevTokens.USDC, stranger.getAddress(), new BigInteger("1000"));
        JsonNode strangers = wallet.run(
                "own-plan",
                "--rpc",
                chain.rpcUrl(),
                "--key",
                IndependentWallet.hex(stranger),
                "--contract",
                contract,
                "--token",
                DevTokens.USDC.address(),
                "--amount",
                "1",
                "--interval",
                Long.toString(INTERVAL),
                "--count",
                "8");
        List<String> strangerIds = new ArrayList<>();
        strangers.get("subscriptions").forEach(id -> strangerIds.add(id.asString()));
        assertThat(strangerIds).hasSize(8).doesNotHaveDuplicates();

        // A period later the keeper collects the platform's live subscriptions...
        chain.increaseTime(INTERVAL);
        awaitPaidPeriods(api, chain, keptLink, 2);
        awaitPaidPeriods(api, chain, claimedLink, 2);
        // ...and a few more of its passes go by.
        for (int block = 0; block < 5; block++) {
            chain.mine(1);
            sleep(Duration.ofSeconds(1));
        }

        // ...and nothing else: no transaction touched the stranger's subscriptions or the stopped one after they
        // were made (each subscribe charged its own first period).
        for (String id : strangerIds) {
            assertThat(laterLogs(chain, contract, id, fromBlock))
                    .as("the keeper never acts on a subscription of a plan the platform never saw")
                    .isEmpty();
        }
        String stoppedId = link(api, stoppedLink).get("chain_subscription_id").asString();
        assertThat(laterLogs(chain, contract, stoppedId, fromBlock))
                .as("a stopped link's subscription is not collected")
                .isEmpty();
        JsonNode stoppedNow = link(api, stoppedLink);
        assertThat(stoppedNow.get("is_active").asBoolean()).isFalse();
        assertThat(stoppedNow.get("paid_periods").asInt()).isEqualTo(1);
        String keptId = link(api, keptLink).get("chain_subscription_id").asString();
        assertThat(laterLogs(chain, contract, keptId, fromBlock))
                .as("the kept subscription's second period, collected by the keeper")
                .hasSize(1);

        JsonNode stolen = link(api, thiefLink);
        assertThat(stolen.get("is_active").asBoolean()).isFalse();
        assertThat(stolen.get("chain_status").asString()).isEqualTo("pending");
        assertThat(stolen.get("chain_subscription_id").isNull()).isTrue();
        assertThat(stolen.get("paid_periods").asInt()).isZero();
        JsonNode owned = link(api, claimedLink);
        assertThat(owned.get("is_active").asBoolean()).isTrue();
        assertThat(owned.get("wallet_address").asString()).isEqualToIgnoringCase(claimed.key.getAddress());
    }

    /** A 2 USDC hourly plan the merchant's own wallet key signs (EIP-712), created through the gateway. */
    private static String createPlan(SignedClient api) throws Exception {
        Credentials merchantWallet = Credentials.create(Keys.createEcKeyPair());
        Map<String, Object> terms = new LinkedHashMap<>();
        terms.put("merchant", merchantWallet.getAddress());
        terms.put("destination", Credentials.create(Keys.createEcKeyPair()).getAddress());
        terms.put("token", DevTokens.USDC.address());
        terms.put("amount", AMOUNT.toString());
        terms.put("interval", INTERVAL);
        terms.put("max_arrears", 1_800);
        terms.put("name", "Owned");
        HttpResponse<String> typed = api.post("/subscriptions/plans/typed-data", JSON.writeValueAsString(terms));
        assertThat(typed.statusCode()).as(typed.body()).isEqualTo(200);
        JsonNode typedData = JSON.readTree(typed.body()).get("typed_data");
        Sign.SignatureData signature =
                Sign.signTypedData(JSON.writeValueAsString(typedData), merchantWallet.getEcKeyPair());
        Map<String, Object> signed = new LinkedHashMap<>(terms);
        signed.put("plan_nonce", typedData.get("message").get("planNonce").asLong());
        signed.put(
                "merchant_sig",
                Numeric.toHexString(signature.getR())
                        + Numeric.toHexStringNoPrefix(signature.getS())
                        + Numeric.toHexStringNoPrefix(signature.getV()));
        HttpResponse<String> created = api.post("/subscriptions/plans/", JSON.writeValueAsString(signed));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return JSON.readTree(created.body()).get("id").asString();
    }

    /** A self-service sign-up's kit: prepare without an invitation makes a new subscriber of the plan. */
    private static JsonNode signUpKit(String planId, String walletAddress) {
        HttpResponse<String> kit =
                httpGet(SuiteStack.get().baseUrl() + "/public/subscriber/prepare?subscription_plan_id=" + planId
                        + "&wallet_address=" + walletAddress + "&periods=3");
        assertThat(kit.statusCode()).as(kit.body()).isEqualTo(200);
        return JSON.readTree(kit.body());
    }

    private static JsonNode link(SignedClient api, String linkPath) {
        HttpResponse<String> link = api.get(linkPath);
        assertThat(link.statusCode()).as(link.body()).isEqualTo(200);
        return JSON.readTree(link.body());
    }

    /** The contract's logs about subscription {@code id} since {@code fromBlock}, but its own subscribe's. */
    private static List<String> laterLogs(DevChain chain, String contract, String id, long fromBlock) throws Exception {
        EthFilter filter = new EthFilter(
                DefaultBlockParameter.valueOf(BigInteger.valueOf(fromBlock)),
                DefaultBlockParameterName.LATEST,
                contract);
        filter.addNullTopic();
        filter.addSingleTopic(id);
        EthLog answer = chain.web3j().ethGetLogs(filter).send();
        assertThat(answer.hasError()).as(() -> answer.getError().getMessage()).isFalse();
        List<Log> logs = new ArrayList<>();
        answer.getLogs().forEach(result -> logs.add((Log) result.get()));
        String subscribedIn = logs.stream()
                .filter(log -> log.getTopics().get(0).equals(SUBSCRIBED))
                .map(Log::getTransactionHash)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no Subscribed log for " + id));
        return logs.stream()
                .filter(log -> !log.getTransactionHash().equals(subscribedIn))
                .map(log -> log.getTransactionHash() + " " + log.getTopics().get(0))
                .toList();
    }

    private static final String SUBSCRIBED = org.web3j.crypto.Hash.sha3String(
            "Subscribed(bytes32,bytes32,address,address,address,address,uint256,uint64,uint64,bytes32)");

    /** A customer with its own key (gas and 10 USDC), signed up and subscribed by the independent wallet. */
    private static final class Customer {
        final IndependentWallet wallet;
        final Credentials key;
        final JsonNode kit;
        final String subscriberId;
        final JsonNode subscribed;

        private Customer(IndependentWallet wallet, Credentials key, JsonNode kit, JsonNode subscribed) {
            this.wallet = wallet;
            this.key = key;
            this.kit = kit;
            this.subscriberId = kit.get("subscriber_id").asString();
            this.subscribed = subscribed;
        }

        static Customer signUp(IndependentWallet wallet, DevChain chain, String planId) throws Exception {
            Credentials key = IndependentWallet.fundedKey(chain);
            chain.mint(DevTokens.USDC, key.getAddress(), new BigInteger("10000000"));
            JsonNode kit = signUpKit(planId, key.getAddress());
            JsonNode subscribed = wallet.subscribe(
                    chain,
                    key,
                    kit.get("plan"),
                    kit.get("ref").asString(),
                    kit.get("subscription_contract").asString(),
                    3);
            return new Customer(wallet, key, kit, subscribed);
        }

        /** Reports this customer's subscribe transaction for {@code subscriberId}; answers the link's API path. */
        String enrol(String subscriberId) {
            JsonNode approval = kit.get("approval");
            HttpResponse<String> enrolled = publicPost(
                    "/public/subscriptions/link/",
                    JSON.writeValueAsString(Map.of(
                            "subscription_plan_id", kit.get("plan").get("id").asString(),
                            "subscriber_id", subscriberId,
                            "wallet_address", key.getAddress(),
                            "subscribe_hash", subscribed.get("subscribe").asString(),
                            "approvals",
                                    List.of(Map.of(
                                            "token_address",
                                                    approval.get("token").asString(),
                                            "amount_approved",
                                                    approval.get("amount").asString(),
                                            "network_name",
                                                    approval.get("network_name").asString(),
                                            "approval_hash",
                                                    subscribed.get("approve").asString())))));
            assertThat(enrolled.statusCode()).as(enrolled.body()).isEqualTo(201);
            return "/subscriptions/link/"
                    + JSON.readTree(enrolled.body()).get("id").asString();
        }
    }
}
