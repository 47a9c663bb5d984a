package dev.cryptopay.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.MerchantCredential;
import dev.cryptopay.auth.internal.MerchantIdentity;
import dev.cryptopay.service.events.EventType;
import dev.cryptopay.testsupport.TestKafka;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.service.ServiceTest;
import dev.cryptopay.testsupport.service.ServiceTestBase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Sign;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;

/**
 * The running subscriptions service (see {@link ServiceTest}) and a merchant wallet: plans are signed in the test
 * with well-known development keys, from the typed data the service answers, as a merchant's wallet would.
 */
@ServiceTest(
        database = "subscriptions",
        properties = {
            "outbox.poll-interval=50ms",
            "subscriptions.billing.enabled=false",
            "subscriptions.checkout-url=https://pay.test",
            "subscriptions.contracts.11155111=0x2222222222222222222222222222222222222222",
            // A node that does not answer: the enrolment kit cannot read allowances on Sepolia.
            "subscriptions.rpc-urls.11155111=http://127.0.0.1:9"
        })
public abstract class SubscriptionsTestBase extends ServiceTestBase {

    /** The enrolment kit reads allowances on the shared dev chain, as the service reads them on its network's node. */
    @DynamicPropertySource
    static void devChainNode(DynamicPropertyRegistry registry) {
        registry.add("subscriptions.rpc-urls.31337", CHAIN::rpcUrl);
    }

    /** The dev chain's first account (a public development key; never real funds). */
    protected static final ECKeyPair MERCHANT_KEY =
            ECKeyPair.create(Numeric.toBigInt("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"));

    protected static final String MERCHANT_ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

    /** The dev chain's second account. */
    protected static final ECKeyPair OTHER_KEY =
            ECKeyPair.create(Numeric.toBigInt("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"));

    protected static final String OTHER_ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    protected static final String DESTINATION = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

    /** USDC (6 decimals) on the dev chain, chain id 31337: the default network of test mode. */
    protected static final String DEV_USDC = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";

    protected static final String DEV_CHAIN_ID = "2101c9d0-191f-5286-9415-6f6fb2424434";
    protected static final String SEPOLIA_ID = "058ff815-37dc-5eff-b476-29c32a4cadc6";
    protected static final String ETHEREUM_ID = "e86273c2-08b5-5990-8c8f-75dce15c6fa3";
    protected static final String USDC_CURRENCY_ID = "8869f514-71db-5d4f-9dda-b9126cb24da7";

    /** 10 USDC every 30 days, a 7-day trial, 3 days of grace, cancelled after 3 misses. */
    protected static Map<String, Object> amountPlan(String name) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("merchant", MERCHANT_ADDRESS);
        body.put("destination", DESTINATION);
        body.put("token", DEV_USDC);
        body.put("amount", "10000000");
        body.put("interval", 2592000);
        body.put("trial_period", 604800);
        body.put("max_arrears", 259200);
        body.put("auto_cancel_after_missed", 3);
        body.put("subscribe_deadline", 86400);
        body.put("name", name);
        return body;
    }

    /** 9.99 USDC every 30 days, priced by value. */
    protected static Map<String, Object> valuePlan(String name) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("merchant", MERCHANT_ADDRESS);
        body.put("destination", DESTINATION);
        body.put("currency", "USDC");
        body.put("value", "9.99");
        body.put("interval", 2592000);
        body.put("name", name);
        return body;
    }

    protected WebTestClient.ResponseSpec send(MerchantIdentity merchant, HttpMethod method, String uri, Object body) {
        return as(merchant, method, uri)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body instanceof String text ? text : json.writeValueAsString(body))
                .exchange();
    }

    protected WebTestClient.ResponseSpec get(MerchantIdentity merchant, String uri) {
        return as(merchant, HttpMethod.GET, uri).exchange();
    }

    /** The typed data the service gives for these terms (assigning the next plan_nonce when none is sent). */
    protected JsonNode typedData(MerchantIdentity merchant, Map<String, Object> body) {
        return read(send(merchant, HttpMethod.POST, "/subscriptions/plans/typed-data", body)
                .expectStatus()
                .isOk());
    }

    /** Signs typed data with eth_signTypedData_v4 semantics: 0x-hex r ‖ s ‖ v. */
    protected String sign(JsonNode typedData, ECKeyPair key) {
        try {
            return hex(Sign.signTypedData(json.writeValueAsString(typedData), key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asks for the typed data, signs it with the merchant key and adds plan_nonce and merchant_sig to the body. */
    protected Map<String, Object> signed(MerchantIdentity merchant, Map<String, Object> body, ECKeyPair key) {
        JsonNode answer = typedData(merchant, body);
        Map<String, Object> signed = new LinkedHashMap<>(body);
        signed.put(
                "plan_nonce",
                answer.get("typed_data").get("message").get("planNonce").asLong());
        signed.put("merchant_sig", sign(answer.get("typed_data"), key));
        return signed;
    }

    /** Creates a plan signed by the merchant key and answers it. */
    protected JsonNode createPlan(MerchantIdentity merchant, Map<String, Object> body) {
        JsonNode plan =
                read(send(merchant, HttpMethod.POST, "/subscriptions/plans/", signed(merchant, body, MERCHANT_KEY))
                        .expectStatus()
                        .isCreated());
        assertThat(plan.get("id").asString()).isNotBlank();
        return plan;
    }

    /**
     * The merchant's first {@code expected} events on {@code subscriptions.events}, in order; the internal
     * {@code subscriber.invited} (for notification-service, never a merchant's) left out.
     */
    protected static List<ConsumerRecord<String, String>> merchantEvents(MerchantIdentity merchant, int expected) {
        return TestKafka.records(
                "subscriptions.events",
                expected,
                record -> merchant.merchantId().toString().equals(record.key())
                        && !EventType.isInternal(TestKafka.header(record, "event-type")));
    }

    /** Invites a customer to a plan and answers the subscriber. */
    protected JsonNode createSubscriber(MerchantIdentity merchant, String planId, String name, String email) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("subscription_plan_id", planId);
        body.put("customer_name", name);
        body.put("customer_email", email);
        return read(send(merchant, HttpMethod.POST, "/subscriber/", body)
                .expectStatus()
                .isCreated());
    }

    /** A customer's wallet (the dev chain's fourth account, a public development key). */
    protected static final String WALLET = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

    protected static final ECKeyPair WALLET_KEY =
            ECKeyPair.create(Numeric.toBigInt("0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6"));

    /**
     * A customer's change of its link, signed by a wallet the way the route asks: {@code personal_sign} over the
     * route, the time and the SHA-256 of the exact body.
     */
    protected WebTestClient.ResponseSpec walletPut(String linkId, Object body, ECKeyPair key, Instant signedAt) {
        return walletSigned("/public/subscriptions/link/" + linkId, body, key, signedAt);
    }

    /** A customer's change of its enrolled subscriber, signed by {@code key} as the route asks. */
    protected WebTestClient.ResponseSpec walletPutSubscriber(String subscriberId, Object body, ECKeyPair key) {
        return walletSigned("/public/subscriber/" + subscriberId, body, key, clock.instant());
    }

    private WebTestClient.ResponseSpec walletSigned(String path, Object body, ECKeyPair key, Instant signedAt) {
        String text = body instanceof String raw ? raw : json.writeValueAsString(body);
        return as(null, HttpMethod.PUT, path)
                .headers(headers -> headers.addAll(walletHeadersFor(path, text, key, signedAt)))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(text)
                .exchange();
    }

    /** The signature headers of a link change with exactly this body text. */
    protected static HttpHeaders walletHeaders(String linkId, String bodyText, ECKeyPair key, Instant signedAt) {
        return walletHeadersFor("/public/subscriptions/link/" + linkId, bodyText, key, signedAt);
    }

    /**
     * The host customers sign: of the service's default public API address ({@code subscriptions.public-url}), which
     * the tests keep.
     */
    protected static final String SIGNED_HOST = "sandbox.cryptopay.dev";

    /**
     * The signature headers of a customer's change of {@code path} (a link or an enrolled subscriber), with a fresh
     * nonce.
     */
    protected static HttpHeaders walletHeadersFor(String path, String bodyText, ECKeyPair key, Instant signedAt) {
        return walletHeadersFor(
                SIGNED_HOST, path, bodyText, key, signedAt, UUID.randomUUID().toString());
    }

    /** The signature headers of a change signed for {@code host} with {@code nonce}. */
    protected static HttpHeaders walletHeadersFor(
            String host, String path, String bodyText, ECKeyPair key, Instant signedAt, String nonce) {
        String message = "Cryptopay subscription link change\n" + host + "\nPUT " + path + "\n" + nonce + "\n"
                + signedAt + "\n" + sha256(bodyText);
        HttpHeaders headers = new HttpHeaders();
        headers.add(
                "X-Wallet-Signature",
                hex(Sign.signPrefixedMessage(message.getBytes(java.nio.charset.StandardCharsets.UTF_8), key)));
        headers.add("X-Wallet-Timestamp", signedAt.toString());
        headers.add("X-Wallet-Nonce", nonce);
        return headers;
    }

    protected WebTestClient.ResponseSpec walletPut(String linkId, Object body) {
        return walletPut(linkId, body, WALLET_KEY, clock.instant());
    }

    private static String sha256(String text) {
        try {
            return java.util.HexFormat.of()
                    .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                            .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(Sign.SignatureData signature) {
        return Numeric.toHexString(signature.getR())
                + Numeric.toHexStringNoPrefix(signature.getS())
                + Numeric.toHexStringNoPrefix(signature.getV());
    }

    /** An enrolment body as a wallet sends it: one approval of {@code approved} base units of dev-chain USDC. */
    protected static Map<String, Object> enrolment(String planId, String subscriberId, String approved) {
        Map<String, Object> approval = new LinkedHashMap<>();
        approval.put("approval_hash", "0x" + "cd".repeat(32));
        approval.put("token_address", DEV_USDC.toLowerCase());
        approval.put("amount_approved", approved);
        approval.put("network_name", "local dev chain");
        approval.put("chain_id", 31337);
        approval.put("decimals", 6);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("subscription_plan_id", planId);
        if (subscriberId != null) {
            body.put("subscriber_id", subscriberId);
        }
        body.put("wallet_address", WALLET);
        body.put("subscribe_hash", "0x" + "ab".repeat(32));
        body.put("approvals", new java.util.ArrayList<>(List.of(approval)));
        return body;
    }

    /** The shared dev chain (anvil) with the subscription contract where the service's configuration names it. */
    protected static final DevChain CHAIN = DevChain.shared();

    /**
     * Enrols an invited subscriber for real and answers the active link: the wallet sends exactly the transactions
     * {@code prepare} answers on the dev chain, the chain watcher's reports of the confirmed logs arrive, then the
     * enrolment names the transaction (the watcher was faster: the enrolment applies the waiting log).
     */
    protected JsonNode enrol(String planId, String subscriberId) {
        TransactionReceipt subscribed = subscribeOnChain(subscriberId, "12");
        reportLogs(subscribed);
        Map<String, Object> body = enrolment(planId, subscriberId, "120000000");
        body.put("subscribe_hash", subscribed.getTransactionHash());
        JsonNode link = read(send(null, HttpMethod.POST, "/public/subscriptions/link/", body)
                .expectStatus()
                .isCreated());
        assertThat(link.get("chain_status").asString()).isEqualTo("subscribed");
        return link;
    }

    /**
     * The wallet subscribes on the dev chain with the transactions {@code prepare} answers for {@code periods}
     * periods, after getting enough test USDC; answers the subscribe transaction's receipt.
     */
    protected TransactionReceipt subscribeOnChain(String subscriberId, String periods) {
        return sendKit(read(as(
                        null,
                        HttpMethod.GET,
                        "/public/subscriber/prepare?subscriber_id=" + subscriberId + "&wallet_address=" + WALLET
                                + "&periods=" + periods)
                .exchange()
                .expectStatus()
                .isOk()));
    }

    /**
     * A customer signs up to a plan without an invitation: {@code prepare} makes its subscriber and answers the
     * enrolment kit for {@link #WALLET}.
     */
    protected JsonNode signUp(String planId) {
        return read(as(
                        null,
                        HttpMethod.GET,
                        "/public/subscriber/prepare?subscription_plan_id=" + planId + "&wallet_address=" + WALLET)
                .exchange()
                .expectStatus()
                .isOk());
    }

    /**
     * The wallet sends exactly the kit's transactions on the dev chain, after getting enough test USDC; answers the
     * last one's (subscribe's) receipt.
     */
    protected TransactionReceipt sendKit(JsonNode kit) {
        CHAIN.mint(DevTokens.USDC, WALLET, DevTokens.USDC.baseUnits("1000"));
        TransactionReceipt last = null;
        for (JsonNode transaction : kit.get("transactions")) {
            last = CHAIN.sendTransaction(
                    WALLET,
                    transaction.get("to").asString(),
                    transaction.get("data").asString(),
                    Numeric.decodeQuantity(transaction.get("value").asString()));
            assertThat(last.isStatusOK())
                    .as("transaction to " + transaction.get("to"))
                    .isTrue();
        }
        return last;
    }

    /** Sets {@code wallet}'s USDC allowance for the contract (other tests' enrolments leave some behind). */
    protected static void allowContract(String wallet, BigInteger baseUnits) {
        CHAIN.sendTransaction(
                wallet,
                DevTokens.USDC.address(),
                dev.cryptopay.subscriptions.plan.SubscriptionContractCalls.approve(
                        DevChain.SUBSCRIPTION_CONTRACT, baseUnits),
                BigInteger.ZERO);
    }

    /** Calls the contract from {@code from} (an unlocked dev account); answers the receipt. */
    protected static TransactionReceipt contractCall(String from, String functionName, String subscriptionId) {
        org.web3j.abi.datatypes.Function call = new org.web3j.abi.datatypes.Function(
                functionName,
                List.of(new org.web3j.abi.datatypes.generated.Bytes32(Numeric.hexStringToByteArray(subscriptionId))),
                List.of());
        return CHAIN.sendTransaction(
                from,
                DevChain.SUBSCRIPTION_CONTRACT,
                org.web3j.abi.FunctionEncoder.encode(call),
                java.math.BigInteger.ZERO);
    }

    /**
     * Reports the subscription contract's logs in a transaction to {@code POST /internal/chain/logs} as the chain
     * watcher does once they are confirmed; answers each answer's outcome.
     */
    protected List<String> reportLogs(TransactionReceipt receipt) {
        return receipt.getLogs().stream()
                .filter(log -> log.getAddress().equalsIgnoreCase(DevChain.SUBSCRIPTION_CONTRACT))
                .map(log -> reportLog(log, false)
                        .expectStatus()
                        .is2xxSuccessful()
                        .expectBody()
                        .returnResult()
                        .getResponseBody())
                .map(bytes -> json.readTree(bytes).get("outcome").asString())
                .toList();
    }

    /** One log's report, as the chain watcher sends it. */
    protected WebTestClient.ResponseSpec reportLog(Log log, boolean removed) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("chain_id", 31337);
        body.put("contract", log.getAddress().toLowerCase());
        body.put("tx_hash", log.getTransactionHash());
        body.put("log_index", log.getLogIndex().intValueExact());
        body.put("block_number", log.getBlockNumber().longValueExact());
        body.put("block_hash", log.getBlockHash());
        body.put("block_time", blockTime(log.getBlockNumber()).toString());
        body.put("topics", log.getTopics());
        body.put("data", log.getData());
        body.put("confirmations", 3);
        body.put("removed", removed);
        return asChainWatcher(HttpMethod.POST, "/internal/chain/logs")
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(json.writeValueAsString(body))
                .exchange();
    }

    private static Instant blockTime(java.math.BigInteger number) {
        try {
            return Instant.ofEpochSecond(CHAIN.web3j()
                    .ethGetBlockByNumber(org.web3j.protocol.core.DefaultBlockParameter.valueOf(number), false)
                    .send()
                    .getBlock()
                    .getTimestamp()
                    .longValueExact());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A payment report as the merchant's backend sends it (the gateway resolved its merchant_key, an API key). */
    protected WebTestClient.ResponseSpec reportPayment(
            MerchantIdentity merchant, JsonNode link, JsonNode plan, String txHash, String amount) {
        return reportPayment(MerchantCredential.API_KEY, merchant, link, plan, txHash, amount);
    }

    /** A payment report whose merchant_key the gateway resolved as this kind of key. */
    protected WebTestClient.ResponseSpec reportPayment(
            MerchantCredential credential,
            MerchantIdentity merchant,
            JsonNode link,
            JsonNode plan,
            String txHash,
            String amount) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("sub_link_id", link.get("id").asString());
        body.put(
                "merchant_key",
                credential == MerchantCredential.API_KEY
                        ? "mk_test_resolved_by_the_gateway"
                        : "pk_test_resolved_by_the_gateway");
        body.put("tx_hash", txHash);
        body.put("block_number", 42);
        body.put("block_hash", "0x" + "ef".repeat(32));
        body.put("network_id", plan.get("network_id").asString());
        body.put("currency_id", plan.get("currency_id").asString());
        body.put("amount_paid", amount);
        body.put("wallet_used", WALLET);
        return as(merchant, HttpMethod.POST, "/public/subscriptions/link/payment")
                .headers(headers -> headers.set(InternalHeaders.MERCHANT_CREDENTIAL, credential.wireName()))
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue(json.writeValueAsString(body))
                .exchange();
    }

    /** A fresh 0x-prefixed 32-byte transaction hash. */
    protected static String txHash() {
        return "0x" + (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "");
    }
}
