package dev.cryptopay.testsupport.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chain that outlives its process: a fixed port and a state directory (what the local stack uses), and a node
 * someone else started ({@link DevChain#attach}, what the docker compose setup uses). Real anvil processes.
 */
class DevChainStateTest {

    private static final String HOLDER = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

    @Test
    void aChainWithAStateDirectoryContinuesOnItsFixedPortAfterARestart(@TempDir Path dir) throws IOException {
        int port = freePort();
        String mint;
        long height;
        BigInteger balance;
        try (DevChain first = new DevChain().port(port).stateIn(dir).start()) {
            assertThat(first.rpcUrl()).isEqualTo("http://127.0.0.1:" + port);
            assertThat(first.deployedTokens()).as("a new chain gets the tokens").isTrue();
            assertThat(ProcessHandle.of(first.pid()))
                    .hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());
            mint = first.mint(DevTokens.USDC, HOLDER, BigInteger.valueOf(1234));
            height = first.blockNumber();
            balance = first.tokenBalance(DevTokens.USDC, HOLDER);
        }
        assertThat(dir.resolve("state.json"))
                .as("written when close() stopped anvil")
                .isRegularFile();
        assertThat(dir.resolve("anvil.log")).isRegularFile();

        try (DevChain second = new DevChain().port(port).stateIn(dir).start()) {
            assertThat(second.deployedTokens())
                    .as("the tokens are there already")
                    .isFalse();
            assertThat(second.blockNumber()).isEqualTo(height);
            assertThat(second.receipt(mint)).isPresent();
            assertThat(second.tokenBalance(DevTokens.USDC, HOLDER)).isEqualTo(balance);
            second.mine(1);
            assertThat(second.blockNumber()).isEqualTo(height + 1);
        }
        assertThat(dir).as("a state directory is kept").isDirectory();
    }

    @Test
    void attachDeploysTheTokensOnABareNodeOnceAndLeavesTheNodeRunning(@TempDir Path dir) throws IOException {
        DevChainFiles files = DevChainFiles.prepare();
        int port = freePort();
        String url = "http://127.0.0.1:" + port;
        ChainRpc probe = new ChainRpc(url);
        AnvilNode bare = AnvilNode.start(
                files.anvil(), port, dir.resolve("state.json"), 0, dir.resolve("anvil.log"), probe.web3j());
        try {
            try (DevChain attached = DevChain.attach(url, files.tokenArtifact())) {
                assertThat(attached.deployedTokens()).isTrue();
                assertThat(attached.chainId()).isEqualTo(31337L);
                attached.mint(DevTokens.WETH, HOLDER, BigInteger.TEN);
                assertThatThrownBy(attached::pid).isInstanceOf(IllegalStateException.class);
            }
            try (DevChain again = DevChain.attach(url, files.tokenArtifact())) {
                assertThat(again.deployedTokens())
                        .as("a second setup run finds the tokens")
                        .isFalse();
                assertThat(again.tokenBalance(DevTokens.WETH, HOLDER)).isEqualTo(BigInteger.TEN);
            }
            assertThat(probe.web3j().ethBlockNumber().send().getBlockNumber())
                    .as("close() of an attached chain leaves the node alone")
                    .isPositive();
        } finally {
            bare.kill();
            probe.shutdown();
        }
    }

    @Test
    void waitingForANodeThatNeverAnswersEndsWithItsAddress() throws IOException {
        int port = freePort();
        ChainRpc rpc = new ChainRpc("http://127.0.0.1:" + port);
        try {
            assertThatThrownBy(() -> rpc.awaitAnswer(Duration.ofMillis(300)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("no node answers at http://127.0.0.1:" + port + " within PT0.3S");
        } finally {
            rpc.shutdown();
        }
    }

    @Test
    void aPortOutOfRangeIsRefusedBeforeAnythingStarts() {
        assertThatThrownBy(() -> new DevChain().port(70000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("not a port: 70000");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
