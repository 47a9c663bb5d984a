package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.deploy.DevPay.PaymentUri;
import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SandboxCredentials;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.deploy.sandbox.SandboxWallet;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import java.io.IOException;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.web3j.abi.EventEncoder;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Event;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.crypto.Bip32ECKeyPair;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.crypto.MnemonicUtils;
import org.web3j.protocol.core.methods.response.EthSendTransaction;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.tx.RawTransactionManager;
import tools.jackson.databind.JsonNode;

/**
 * What the money-path tests share: a merchant of their own whose receiving key is the {@code xpub} of a wallet the
 * test holds (a BIP-39 mnemonic, derived as the launcher's sandbox wallet is), so the test can send from any deposit
 * address as the merchant's wallet would; a webhook endpoint subscribed to every payment, wallet and transfer event;
 * and payments on the suite's dev chain. The suite's chain-watcher counts a transfer confirmed at two blocks and anvil
 * mines a block per transaction, so {@link #confirm()} mines the second one.
 */
final class MoneyPathsMerchant implements AutoCloseable {

    static final List<String> EVENTS = List.of(
            "payment.created",
            "payment.pending",
            "payment.completed",
            "payment.failed",
            "payment.refunded",
            "wallet.deposit",
            "wallet.withdrawal",
            "transfer.initiated",
            "transfer.completed",
            "transfer.failed");
    static final Duration WAIT = Duration.ofSeconds(60);
    static final String TRANSFER_TOPIC = EventEncoder.encode(new Event(
            "Transfer",
            List.of(
                    new TypeReference<Address>(true) {},
                    new TypeReference<Address>(true) {},
                    new TypeReference<Uint256>() {})));

    /** BIP-44 for Ethereum, as the sandbox wallet: m/44'/60'/0'/0, one deposit address per index. */
    private static final int[] RECEIVING_PATH = {
        44 | Bip32ECKeyPair.HARDENED_BIT, 60 | Bip32ECKeyPair.HARDENED_BIT, Bip32ECKeyPair.HARDENED_BIT, 0
    };
    /** Gas for a deposit address's few transfers: 0.01 ETH. */
    private static final BigInteger GAS_MONEY = BigInteger.TEN.pow(16);

    final DevChain chain;
    final SignedClient api;
    /** The merchant's API key and private key (the one-line {@code Ed25519:} form the dashboard's sign-in reads). */
    final SandboxCredentials credentials;
    /** The customer: dev account 3 pays the links (and gets the refunds). */
    final String payer;

    private final WebhookReceiver receiver;
    private final String secret;
    private final Bip32ECKeyPair receiving;
    private final Map<String, Credentials> depositKeys = new HashMap<>();
    private int derived;

    private MoneyPathsMerchant(
            DevChain chain,
            SandboxCredentials credentials,
            SignedClient api,
            WebhookReceiver receiver,
            String secret,
            Bip32ECKeyPair receiving) {
        this.chain = chain;
        this.credentials = credentials;
        this.api = api;
        this.payer = chain.accounts().get(3);
        this.receiver = receiver;
        this.secret = secret;
        this.receiving = receiving;
    }

    static MoneyPathsMerchant start(String name) {
        LocalStack stack = SuiteStack.get();
        DevChain chain = stack.devChain().orElseThrow(() -> new AssertionError("the suite runs with its dev chain"));
        byte[] entropy = new byte[16];
        new SecureRandom().nextBytes(entropy);
        String mnemonic = MnemonicUtils.generateMnemonic(entropy);
        SandboxWallet wallet = SandboxWallet.fromMnemonic(mnemonic);
        SandboxCredentials credentials = stack.newMerchant(name, Mode.TEST);
        SignedClient api = new SignedClient(stack.baseUrl(), credentials);
        HttpResponse<String> keyed = api.send(
                "PUT",
                "/payment_links/receiving_key",
                "{\"extended_public_key\":\"" + wallet.extendedPublicKey() + "\"}");
        assertThat(keyed.statusCode()).as(keyed.body()).isEqualTo(201);
        Bip32ECKeyPair receiving = Bip32ECKeyPair.deriveKeyPair(
                Bip32ECKeyPair.generateKeyPair(MnemonicUtils.generateSeed(mnemonic, "")), RECEIVING_PATH);
        WebhookReceiver receiver = new WebhookReceiver();
        String secret = SuiteStack.register(api, receiver.url(), EVENTS);
        MoneyPathsMerchant merchant = new MoneyPathsMerchant(chain, credentials, api, receiver, secret, receiving);
        assertThat(merchant.keyOf(wallet.firstAddress()).getAddress())
                .as("the test's keys are those of the registered xpub")
                .isEqualToIgnoringCase(wallet.firstAddress());
        return merchant;
    }

    // ---- the merchant API ----

    /** A new USDC link; {@code more} adds members to the body (e.g. {@code ,"expires_at":"…"}). */
    JsonNode createLink(String name, String amount, String more) {
        HttpResponse<String> created = api.post(
                "/payment_links",
                "{\"payment_name\":\"" + name + "\",\"amount\":" + amount + ",\"currency\":\"USDC\"" + more + "}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode link = JSON.readTree(created.body()).get("data");
        assertThat(link.get("deposit_address").asString()).startsWith("0x");
        return link;
    }

    JsonNode link(String id) {
        HttpResponse<String> read = api.get("/payment_links/" + id);
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        return JSON.readTree(read.body()).get("data");
    }

    /** Polls the link until {@code condition} holds; answers it as it then reads. */
    JsonNode awaitLink(String id, String what, Predicate<JsonNode> condition) {
        JsonNode[] last = new JsonNode[1];
        await(what + " (link " + id + ")", WAIT, () -> condition.test(last[0] = link(id)));
        return last[0];
    }

    JsonNode awaitStatus(String id, String status) {
        return awaitLink(
                id, status, link -> link.get("payment_status").asString().equals(status));
    }

    List<JsonNode> refunds(String id) {
        HttpResponse<String> read = api.get("/payment_links/" + id + "/refunds");
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        return JSON.readTree(read.body()).get("data").get("data").values().stream()
                .toList();
    }

    HttpResponse<String> resolve(String id, String txHash, Integer logIndex) {
        return api.post(
                "/payment_links/" + id + "/resolve",
                "{\"tx_hash\":\"" + txHash + "\"" + (logIndex == null ? "" : ",\"log_index\":" + logIndex) + "}");
    }

    // ---- the dev chain ----

    /** Mints {@code amount} of the token to the payer, who sends it to {@code to}; answers the transfer's receipt. */
    TransactionReceipt pay(DevTokens token, String to, String amount) {
        BigInteger units = token.baseUnits(amount);
        chain.mint(token, payer, units);
        return chain.receipt(chain.transferToken(payer, token, to, units)).orElseThrow();
    }

    /** Mines the block that makes the latest transfer's second confirmation. */
    void confirm() {
        chain.mine(1);
    }

    /** Gas for a deposit address from dev account 4: a native-coin transfer to it, which its link records as ETH. */
    String fundGas(String deposit) {
        return chain.sendNative(chain.accounts().get(4), deposit, GAS_MONEY);
    }

    /** Pays an EIP-681 {@code payment_uri} (a refund's) from the deposit address, signed with its key. */
    TransactionReceipt payFrom(String deposit, String paymentUri) throws IOException {
        PaymentUri payment = PaymentUri.parse(paymentUri);
        assertThat(payment.chainId()).isEqualTo(DevChain.CHAIN_ID);
        return payment.token().isPresent()
                ? sendFrom(deposit, payment.token().get(), transferCall(payment.recipient(), payment.amount()), null)
                : sendFrom(deposit, payment.recipient(), "", payment.amount());
    }

    /** A token transfer out of the deposit address, signed with its key (a sweep to the merchant's treasury). */
    TransactionReceipt transferFrom(String deposit, DevTokens token, String to, BigInteger units) throws IOException {
        return sendFrom(deposit, token.address(), transferCall(to, units), null);
    }

    /** The ERC-20 Transfer logs of a receipt, in log order. */
    static List<Log> transferLogs(TransactionReceipt receipt) {
        return receipt.getLogs().stream()
                .filter(log -> log.getTopics().get(0).equals(TRANSFER_TOPIC))
                .toList();
    }

    static String freshAddress() {
        try {
            return Keys.toChecksumAddress(
                    Credentials.create(Keys.createEcKeyPair()).getAddress());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private TransactionReceipt sendFrom(String deposit, String to, String data, BigInteger value) throws IOException {
        BigInteger gasPrice = chain.web3j().ethGasPrice().send().getGasPrice();
        BigInteger gasLimit = BigInteger.valueOf(value == null ? 100_000 : 21_000);
        EthSendTransaction sent = new RawTransactionManager(chain.web3j(), keyOf(deposit), DevChain.CHAIN_ID)
                .sendTransaction(gasPrice, gasLimit, to, data, value == null ? BigInteger.ZERO : value);
        assertThat(sent.hasError())
                .as(() -> "sent from " + deposit + ": " + sent.getError().getMessage())
                .isFalse();
        String hash = sent.getTransactionHash();
        await("transaction " + hash + " mined", WAIT, () -> chain.receipt(hash).isPresent());
        TransactionReceipt receipt = chain.receipt(hash).orElseThrow();
        assertThat(receipt.isStatusOK())
                .as("transaction " + hash + " succeeded")
                .isTrue();
        return receipt;
    }

    private static String transferCall(String to, BigInteger units) {
        return FunctionEncoder.encode(
                new Function("transfer", List.of(new Address(to), new Uint256(units)), List.of()));
    }

    /** The key of a deposit address: the receiving chain's children, derived in index order until one matches. */
    private Credentials keyOf(String deposit) {
        String wanted = deposit.toLowerCase(Locale.ROOT);
        while (!depositKeys.containsKey(wanted)) {
            assertThat(derived)
                    .as(deposit + " is one of the first 1000 addresses of the key")
                    .isLessThan(1000);
            Credentials child = Credentials.create(Bip32ECKeyPair.deriveKeyPair(receiving, new int[] {derived++}));
            depositKeys.put(child.getAddress().toLowerCase(Locale.ROOT), child);
        }
        return depositKeys.get(wanted);
    }

    // ---- webhooks ----

    /**
     * The events about a link delivered so far, in arrival order (its {@code payment.*} and {@code wallet.deposit}
     * name it as {@code data.id}, its {@code transfer.*} and {@code wallet.withdrawal} as {@code data.payment_link_id}),
     * each checked to be signed with the endpoint's secret.
     */
    List<JsonNode> events(String linkId) {
        return receiver.received().stream()
                .filter(delivery -> {
                    JsonNode data = JSON.readTree(delivery.body()).get("data");
                    JsonNode link = data.has("payment_link_id") ? data.get("payment_link_id") : data.get("id");
                    return link != null && linkId.equals(link.asString());
                })
                .map(delivery -> {
                    assertThat(delivery.header("X-Service-Signature"))
                            .isEqualTo(WebhookReceiver.hmacHex(secret, delivery.body()));
                    return JSON.readTree(delivery.body());
                })
                .toList();
    }

    /** The {@code data} of each event of this type about the link. */
    List<JsonNode> events(String linkId, String type) {
        return events(linkId).stream()
                .filter(event -> event.get("type").asString().equals(type))
                .map(event -> event.get("data"))
                .toList();
    }

    /** Waits for the first event of this type about the link that {@code matching} accepts; answers its data. */
    JsonNode awaitEvent(String linkId, String type, Predicate<JsonNode> matching) {
        await(
                type + " of link " + linkId,
                WAIT,
                () -> first(linkId, type, matching).isPresent());
        return first(linkId, type, matching).orElseThrow();
    }

    JsonNode awaitEvent(String linkId, String type) {
        return awaitEvent(linkId, type, data -> true);
    }

    /** The event types about the link so far, in arrival order. */
    List<String> types(String linkId) {
        return events(linkId).stream()
                .map(event -> event.get("type").asString())
                .toList();
    }

    /**
     * Gives deliveries still in flight a moment to arrive, before a test asserts that an event did not come: the
     * service writes every event of a step in one transaction, and they are delivered within a second or so.
     */
    static void settle() {
        SuiteStack.sleep(Duration.ofMillis(1500));
    }

    private Optional<JsonNode> first(String linkId, String type, Predicate<JsonNode> matching) {
        return events(linkId, type).stream().filter(matching).findFirst();
    }

    @Override
    public void close() {
        receiver.close();
    }
}
