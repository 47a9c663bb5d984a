package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/** {@code ./dev-pay} against a real anvil (test-support's shared dev chain), as the stack's customer. */
class DevPayTest {

    private static DevChain chain;

    @TempDir
    static Path dir;

    private static Map<String, String> env;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void fundTheCustomer() throws IOException {
        chain = DevChain.shared();
        assertThat(chain.accounts().get(1))
                .as("the customer is anvil's account 1")
                .isEqualTo(CustomerAccount.ADDRESS);
        CustomerAccount.fund(chain);
        Path stackEnv = dir.resolve("stack.env");
        EnvFile.write(
                stackEnv,
                Map.of(
                        "DEV_CHAIN_RPC_URL",
                        chain.rpcUrl(),
                        "DEV_CHAIN_ID",
                        "31337",
                        "CUSTOMER_PRIVATE_KEY",
                        CustomerAccount.PRIVATE_KEY));
        env = Map.of("STACK_ENV", stackEnv.toString());
    }

    @Test
    void aTokenPaymentUriMovesExactlyItsAmountFromTheCustomerAndPrintsTheMinedTransaction() {
        String deposit = freshAddress("d1");
        BigInteger before = chain.tokenBalance(DevTokens.USDC, CustomerAccount.ADDRESS);

        int status = pay(
                "ethereum:" + DevTokens.USDC.address() + "@31337/transfer?address=" + deposit + "&uint256=10500000");

        assertThat(status).as(errText()).isZero();
        assertThat(errText())
                .contains("paying 10500000 base units of " + DevTokens.USDC.address() + " to " + deposit + " from "
                        + CustomerAccount.ADDRESS);
        TransactionReceipt receipt = chain.receipt(out.toString().strip()).orElseThrow();
        assertThat(receipt.isStatusOK()).isTrue();
        assertThat(receipt.getFrom()).isEqualToIgnoringCase(CustomerAccount.ADDRESS);
        assertThat(chain.tokenBalance(DevTokens.USDC, deposit)).isEqualTo(BigInteger.valueOf(10_500_000));
        assertThat(chain.tokenBalance(DevTokens.USDC, CustomerAccount.ADDRESS))
                .isEqualTo(before.subtract(BigInteger.valueOf(10_500_000)));
    }

    @Test
    void aNativePaymentUriSendsItsValueInWei() throws IOException {
        String deposit = freshAddress("d2");

        int status = pay("ethereum:" + deposit + "@31337?value=250000000000000000");

        assertThat(status).as(errText()).isZero();
        assertThat(errText()).contains("paying 250000000000000000 wei to " + deposit);
        assertThat(chain.web3j()
                        .ethGetBalance(deposit, DefaultBlockParameterName.LATEST)
                        .send()
                        .getBalance())
                .isEqualTo(new BigInteger("250000000000000000"));
    }

    @Test
    void moreThanTheCustomerHoldsIsRefusedByTheChain() {
        String deposit = freshAddress("d3");

        int status = pay("ethereum:" + DevTokens.WBTC.address() + "@31337/transfer?address=" + deposit + "&uint256="
                + DevTokens.WBTC.baseUnits("1000000000"));

        assertThat(status).isEqualTo(1);
        assertThat(errText()).contains("refused by the node").contains("insufficient balance");
        assertThat(chain.tokenBalance(DevTokens.WBTC, deposit)).isZero();
    }

    @Test
    void aLinkOfAnotherChainOrABadUriIsAUsageProblem() {
        assertThat(pay("ethereum:" + freshAddress("d4") + "@1?value=1")).isEqualTo(2);
        assertThat(errText()).contains("the payment is for chain 1, but the node is chain 31337 (a live-mode link");

        err.reset();
        assertThat(pay("https://example.com/pay")).isEqualTo(2);
        assertThat(errText()).contains("not a payment link's payment_uri");
    }

    @Test
    void withoutADevChainInStackEnvItSaysWhy() throws IOException {
        Path noChain = dir.resolve("no-chain.env");
        EnvFile.write(noChain, Map.of("BASE_URL", "http://127.0.0.1:8080/api/v1"));

        int status = DevPay.run(
                new String[] {"ethereum:" + freshAddress("d5") + "@31337?value=1"},
                Map.of("STACK_ENV", noChain.toString()),
                new PrintStream(out, true),
                new PrintStream(err, true));

        assertThat(status).isEqualTo(2);
        assertThat(errText()).contains("names no dev chain").contains("Node.js 20 and npm");
        assertThat(Files.exists(noChain)).isTrue();
    }

    private int pay(String uri) {
        return DevPay.run(new String[] {uri}, env, new PrintStream(out, true), new PrintStream(err, true));
    }

    private String errText() {
        return err.toString(StandardCharsets.UTF_8);
    }

    /** An address no one used: 40 hex digits from the tag and the time. */
    private static String freshAddress(String tag) {
        String hex = tag + Long.toHexString(System.nanoTime());
        return org.web3j.crypto.Keys.toChecksumAddress("0x" + "0".repeat(40 - hex.length()) + hex);
    }
}
