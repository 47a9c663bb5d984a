package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static dev.cryptopay.e2e.SuiteStack.await;
import static dev.cryptopay.e2e.SuiteStack.register;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.SignedClient;
import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import java.io.IOException;
import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import tools.jackson.databind.JsonNode;

/**
 * {@code ./dev-refund} (the repository root's script, {@code dev-chain/dev-refund.js}) run as a developer runs it, as
 * its own process with the suite stack's {@code stack.env}: the sandbox merchant's link, paid by the customer with
 * {@code ./dev-pay}, is refunded from its deposit address with the sandbox wallet's key — a USDC transfer found by its
 * payment_uri alone, a native refund of its link named with {@code --link} — and the merchant API shows each refund
 * completed, with {@code transfer.completed} and {@code payment.refunded} delivered; paying it again is refused, and a
 * URI that is no refund's, one of another chain, an unknown link and a missing {@code stack.env} are set-up problems.
 */
class DevRefundEndToEndTest {

    /** Tests run in end-to-end-tests/; the scripts are at the repository root. */
    private static final Path DEV_REFUND =
            Path.of("..", "dev-refund").toAbsolutePath().normalize();

    private static final Path DEV_PAY =
            Path.of("..", "dev-pay").toAbsolutePath().normalize();

    /** Anvil's dev account 3, which gives deposit addresses their gas. */
    private static final String GAS_FUNDER = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

    @TempDir
    Path temp;

    private LocalStack stack;
    private DevChain chain;
    private Map<String, String> env;
    private ScheduledExecutorService miner;

    private record Run(int status, String out, String err) {}

    /**
     * The suite's chain-watcher waits for two confirmations and the dev chain mines only on transactions, so a block is
     * mined every half second while a test runs.
     */
    @BeforeEach
    void startMining() {
        stack = SuiteStack.get();
        chain = stack.devChain().orElseThrow(() -> new AssertionError("the suite runs with its dev chain"));
        env = Map.of("STACK_ENV", stack.stackEnvFile().toString());
        miner = Executors.newSingleThreadScheduledExecutor();
        miner.scheduleWithFixedDelay(() -> chain.mine(1), 500, 500, TimeUnit.MILLISECONDS);
    }

    @AfterEach
    void stopMining() {
        miner.shutdownNow();
    }

    @Test
    void aUsdcRefundFoundByItsPaymentUriIsPaidFromTheDepositAddressOnceAndASecondRunIsRefused() throws Exception {
        SignedClient merchant = stack.client();
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            String secret = register(merchant, receiver.url(), List.of("transfer.completed", "payment.refunded"));
            JsonNode link =
                    paidLink(merchant, "{\"payment_name\":\"Refunded mug\",\"amount\":2.5,\"currency\":\"USDC\"}");
            String linkId = link.get("id").asString();
            String deposit = link.get("deposit_address").asString();
            JsonNode refund = askRefund(merchant, linkId);
            String refundId = refund.get("id").asString();
            String uri = refund.get("payment_uri").asString();
            assertThat(uri)
                    .isEqualTo("ethereum:" + DevTokens.USDC.address() + "@31337/transfer?address="
                            + CustomerAccount.ADDRESS + "&uint256=2500000");
            assertThat(ethBalance(deposit)).as("the customer sent USDC only").isZero();
            BigInteger customerBefore = chain.tokenBalance(DevTokens.USDC, CustomerAccount.ADDRESS);

            Run refunded = run(DEV_REFUND, env, uri);

            assertThat(refunded.status()).as(refunded.err()).isZero();
            JsonNode printed = JSON.readTree(refunded.out());
            assertThat(printed.get("refund_id").asString()).isEqualTo(refundId);
            assertThat(printed.get("payment_link_id").asString()).isEqualTo(linkId);
            assertThat(printed.get("from").asString()).isEqualTo(deposit);
            assertThat(printed.get("to").asString()).isEqualTo(CustomerAccount.ADDRESS);
            assertThat(printed.get("amount").asString()).isEqualTo("2500000");
            assertThat(printed.get("token").asString()).isEqualTo(DevTokens.USDC.address());
            assertThat(refunded.err())
                    .contains("refund " + refundId + " of link " + linkId + ": 2.5 USDC from " + deposit);
            TransactionReceipt funding =
                    chain.receipt(printed.get("funding_hash").asString()).orElseThrow();
            assertThat(funding.getFrom())
                    .as("the gas comes from anvil's dev account 3")
                    .isEqualToIgnoringCase(GAS_FUNDER);
            assertThat(funding.getTo()).isEqualToIgnoringCase(deposit);
            String hash = printed.get("hash").asString();
            TransactionReceipt transfer = chain.receipt(hash).orElseThrow();
            assertThat(transfer.isStatusOK()).isTrue();
            assertThat(transfer.getFrom())
                    .as("signed with the deposit address's key")
                    .isEqualToIgnoringCase(deposit);
            assertThat(chain.tokenBalance(DevTokens.USDC, deposit)).isZero();
            assertThat(chain.tokenBalance(DevTokens.USDC, CustomerAccount.ADDRESS))
                    .isEqualTo(customerBefore.add(new BigInteger("2500000")));

            JsonNode completed = awaitCompleted(merchant, linkId, refundId);
            assertThat(completed.get("tx_hash").asString()).isEqualTo(hash);
            await("transfer.completed and payment.refunded of " + refundId, Duration.ofSeconds(30), () -> {
                List<String> types = deliveriesOf(receiver, refundId).stream()
                        .map(d -> JSON.readTree(d.body()).get("type").asString())
                        .toList();
                return types.contains("transfer.completed") && types.contains("payment.refunded");
            });
            for (WebhookReceiver.Received delivery : deliveriesOf(receiver, refundId)) {
                assertThat(delivery.header("X-Service-Signature"))
                        .isEqualTo(WebhookReceiver.hmacHex(secret, delivery.body()));
                assertThat(JSON.readTree(delivery.body()).toString()).contains(hash);
            }

            Run again = run(DEV_REFUND, env, uri);
            assertThat(again.status()).as(again.err()).isEqualTo(1);
            assertThat(again.err()).contains("no open refund with this payment_uri among the");
            assertThat(again.out()).isEmpty();

            Run named = run(DEV_REFUND, env, "--link", linkId, uri);
            assertThat(named.status()).as(named.err()).isEqualTo(1);
            assertThat(named.err())
                    .contains("no open refund with this payment_uri on link " + linkId + ": refund " + refundId
                            + " is completed, paid by " + hash);
            assertThat(named.out()).isEmpty();
        }
    }

    @Test
    void aNativeRefundOfANamedLinkIsPaidWithItsGasFromADevAccount() throws Exception {
        SignedClient merchant = stack.client();
        JsonNode link = paidLink(merchant, "{\"payment_name\":\"Refunded tip\",\"amount\":0.01,\"currency\":\"ETH\"}");
        String linkId = link.get("id").asString();
        String deposit = link.get("deposit_address").asString();
        JsonNode refund = askRefund(merchant, linkId);
        String uri = refund.get("payment_uri").asString();
        BigInteger value = new BigInteger("10000000000000000");
        assertThat(uri).isEqualTo("ethereum:" + CustomerAccount.ADDRESS + "@31337?value=" + value);
        assertThat(ethBalance(deposit))
                .as("exactly what the customer paid, nothing for gas")
                .isEqualTo(value);
        BigInteger customerBefore = ethBalance(CustomerAccount.ADDRESS);

        Run refunded = run(DEV_REFUND, env, "--link", linkId, uri);

        assertThat(refunded.status()).as(refunded.err()).isZero();
        JsonNode printed = JSON.readTree(refunded.out());
        assertThat(printed.get("token").isNull()).isTrue();
        assertThat(printed.get("amount").asString()).isEqualTo(value.toString());
        assertThat(printed.get("funding_hash").isNull())
                .as("the deposit address held the refund but no gas")
                .isFalse();
        TransactionReceipt transfer =
                chain.receipt(printed.get("hash").asString()).orElseThrow();
        assertThat(transfer.isStatusOK()).isTrue();
        assertThat(transfer.getFrom()).isEqualToIgnoringCase(deposit);
        assertThat(ethBalance(CustomerAccount.ADDRESS)).isEqualTo(customerBefore.add(value));
        assertThat(awaitCompleted(merchant, linkId, refund.get("id").asString())
                        .get("tx_hash")
                        .asString())
                .isEqualTo(printed.get("hash").asString());
    }

    @Test
    void aUriThatIsNoRefundsAnotherChainAnUnknownLinkAndAMissingStackEnvAreSetUpProblems() throws Exception {
        String uri = "ethereum:" + DevTokens.USDC.address() + "@31337/transfer?address=" + CustomerAccount.ADDRESS
                + "&uint256=1";

        Run notUri = run(DEV_REFUND, env, stack.gatewayUrl() + "/checkout/payment_link?payment_id=x");
        assertThat(notUri.status()).isEqualTo(2);
        assertThat(notUri.err()).contains("not a refund's payment_uri");

        Run otherChain = run(DEV_REFUND, env, uri.replace("@31337/", "@1/"));
        assertThat(otherChain.status()).isEqualTo(2);
        assertThat(otherChain.err()).contains("the refund is on chain 1, but the dev chain is chain 31337");

        Run unknownLink = run(DEV_REFUND, env, "--link", "00000000-0000-4000-8000-000000000000", uri);
        assertThat(unknownLink.status()).isEqualTo(2);
        assertThat(unknownLink.err())
                .contains("no payment link 00000000-0000-4000-8000-000000000000 of the sandbox merchant");

        Run noStack =
                run(DEV_REFUND, Map.of("STACK_ENV", temp.resolve("missing.env").toString()), uri);
        assertThat(noStack.status()).isEqualTo(2);
        assertThat(noStack.err()).contains("missing.env does not exist. Start the stack with ./run-local first");
        assertThat(List.of(notUri.out(), otherChain.out(), unknownLink.out(), noStack.out()))
                .containsOnly("");
    }

    /** A new link of the sandbox merchant (paid to the sandbox wallet), paid with ./dev-pay and completed. */
    private JsonNode paidLink(SignedClient merchant, String body) throws Exception {
        HttpResponse<String> created = merchant.post("/payment_links", body);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode link = JSON.readTree(created.body()).get("data");
        Run paid = run(DEV_PAY, env, link.get("payment_uri").asString());
        assertThat(paid.status()).as(paid.err()).isZero();
        String id = link.get("id").asString();
        await(
                "link " + id + " completed",
                Duration.ofSeconds(30),
                () -> "completed"
                        .equals(JSON.readTree(
                                        merchant.get("/payment_links/" + id).body())
                                .get("data")
                                .get("payment_status")
                                .asString()));
        return link;
    }

    /** The refund of the link's money, to its payer: the customer. */
    private static JsonNode askRefund(SignedClient merchant, String linkId) {
        HttpResponse<String> asked = merchant.post("/payment_links/" + linkId + "/refunds", "{}");
        assertThat(asked.statusCode()).as(asked.body()).isEqualTo(201);
        JsonNode refund = JSON.readTree(asked.body()).get("data");
        assertThat(refund.get("status").asString()).isEqualTo("initiated");
        assertThat(refund.get("to_address").asString()).isEqualTo(CustomerAccount.ADDRESS);
        return refund;
    }

    private static JsonNode awaitCompleted(SignedClient merchant, String linkId, String refundId) {
        JsonNode[] found = new JsonNode[1];
        await("refund " + refundId + " completed", Duration.ofSeconds(30), () -> {
            for (JsonNode refund : JSON.readTree(merchant.get("/payment_links/" + linkId + "/refunds")
                            .body())
                    .get("data")
                    .get("data")) {
                if (refund.get("id").asString().equals(refundId)
                        && refund.get("status").asString().equals("completed")) {
                    found[0] = refund;
                }
            }
            return found[0] != null;
        });
        return found[0];
    }

    /** Deliveries about one refund: transfer.* name it as refund_id, payment.refunded as refund.id. */
    private static List<WebhookReceiver.Received> deliveriesOf(WebhookReceiver receiver, String refundId) {
        return receiver.received().stream()
                .filter(d -> {
                    JsonNode data = JSON.readTree(d.body()).get("data");
                    return refundId.equals(data.path("refund_id").asString(""))
                            || refundId.equals(data.path("refund").path("id").asString(""));
                })
                .toList();
    }

    private BigInteger ethBalance(String address) throws IOException {
        return chain.web3j()
                .ethGetBalance(address, DefaultBlockParameterName.LATEST)
                .send()
                .getBalance();
    }

    /** Runs a root script to its end (at most 2 minutes). */
    private Run run(Path script, Map<String, String> environment, String... arguments)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile(temp, script.getFileName().toString(), ".out");
        Path err = Files.createTempFile(temp, script.getFileName().toString(), ".err");
        List<String> command = new ArrayList<>(List.of(script.toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        assertThat(process.waitFor(2, TimeUnit.MINUTES))
                .as(script.getFileName() + " ends within 2 minutes")
                .isTrue();
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }
}
