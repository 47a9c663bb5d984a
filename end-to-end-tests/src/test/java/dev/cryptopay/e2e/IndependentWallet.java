package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.testsupport.chain.DevChain;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;

/**
 * {@code wallet/independent-wallet.mjs} (ethers and the subscription contract's pinned interface, nothing of this
 * project's code) run as a wallet of someone else's would act: each command a process, its answer the JSON it prints,
 * its inputs JSON files written into the test's temporary folder.
 */
final class IndependentWallet {

    private static final Path WALLET = Path.of("wallet");

    private final Path temp;

    private IndependentWallet(Path temp) {
        this.temp = temp;
    }

    /** The wallet's packages installed (once per checkout); its files in {@code temp}. */
    static IndependentWallet in(Path temp) throws IOException, InterruptedException {
        NodeTools.installPackages(WALLET, "ethers");
        return new IndependentWallet(temp);
    }

    /** Runs {@code node independent-wallet.mjs arguments…}; asserts it exited 0 within 2 minutes. */
    JsonNode run(String... arguments) throws IOException, InterruptedException {
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

    /** {@code json} as a file the wallet reads (its {@code --plan} or {@code --typed-data}). */
    String file(String name, JsonNode json) throws IOException {
        Path file = Files.createTempFile(temp, name, ".json");
        Files.writeString(file, JSON.writeValueAsString(json));
        return file.toString();
    }

    /**
     * Approves {@code periods} × the plan's amount and subscribes {@code key} to {@code plan} (as
     * {@code GET /public/subscriptions/plans/{id}} or prepare's {@code plan} answers it) with {@code ref}; answers
     * {@code {approve, subscribe, subscription_id}}.
     */
    JsonNode subscribe(DevChain chain, Credentials key, JsonNode plan, String ref, String contract, int periods)
            throws IOException, InterruptedException {
        return run(
                "subscribe",
                "--rpc",
                chain.rpcUrl(),
                "--key",
                hex(key),
                "--plan",
                file("plan", plan),
                "--ref",
                ref,
                "--contract",
                contract,
                "--periods",
                Integer.toString(periods));
    }

    /** The private key as the wallet's {@code --key} takes it. */
    static String hex(Credentials credentials) {
        return Numeric.toHexStringWithPrefixZeroPadded(
                credentials.getEcKeyPair().getPrivateKey(), 64);
    }

    /** A new key with gas only (1 ETH from anvil's dev account 8), as a wallet of someone else's would be. */
    static Credentials fundedKey(DevChain chain) throws Exception {
        Credentials key = Credentials.create(Keys.createEcKeyPair());
        chain.sendNative(chain.accounts().get(8), key.getAddress(), BigInteger.TEN.pow(18));
        return key;
    }
}
