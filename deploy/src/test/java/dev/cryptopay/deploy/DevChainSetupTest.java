package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compose dev chain's one-shot setup against a bare anvil, as the {@code anvil} container runs it: the tokens at
 * their fixed addresses and the customer funded on the first run, nothing on the second.
 */
class DevChainSetupTest {

    @Test
    void setsUpABareAnvilOnceAndFindsItReadyTheSecondTime(@TempDir Path dir) throws Exception {
        DevChain.shared(); // makes sure dev-chain/ is installed and compiled
        Path devChain = StackOptions.repositoryRoot().resolve("dev-chain");
        int port = freePort();
        Process anvil = new ProcessBuilder(List.of(
                        devChain.resolve("node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil")
                                .toString(),
                        "--host",
                        "127.0.0.1",
                        "--port",
                        String.valueOf(port),
                        "--chain-id",
                        "31337",
                        "--quiet"))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("anvil.log").toFile())
                .start();
        try {
            Map<String, String> env = Map.of(
                    "DEV_CHAIN_RPC_URL",
                    "http://127.0.0.1:" + port,
                    "DEV_CHAIN_TOKEN_ARTIFACT",
                    devChain.resolve("build/TestToken.json").toString());
            ByteArrayOutputStream first = new ByteArrayOutputStream();
            ByteArrayOutputStream second = new ByteArrayOutputStream();

            assertThat(DevChainSetup.run(env, new PrintStream(first, true)))
                    .as(first.toString())
                    .isZero();
            assertThat(DevChainSetup.run(env, new PrintStream(second, true)))
                    .as(second.toString())
                    .isZero();

            assertThat(first.toString(StandardCharsets.UTF_8))
                    .contains("test tokens deployed, customer " + CustomerAccount.ADDRESS + " funded");
            assertThat(second.toString(StandardCharsets.UTF_8)).contains("the test tokens are there already");
            try (DevChain chain = DevChain.attach("http://127.0.0.1:" + port, Path.of("unused"))) {
                for (DevTokens token : DevTokens.values()) {
                    assertThat(chain.tokenBalance(token, CustomerAccount.ADDRESS))
                            .as(token + " of the customer, minted once")
                            .isEqualTo(token.baseUnits(CustomerAccount.TOKEN_AMOUNT));
                }
            }
        } finally {
            anvil.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
