package dev.cryptopay.testsupport.chain;

import dev.cryptopay.testsupport.DirectoryTree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.web3j.protocol.core.DefaultBlockParameterName;

/**
 * Where and how the anvil of a {@link DevChain} runs: its port, its state file and log, and stopping and starting
 * it again on the same state. A temporary node lives in a new temporary directory (deleted on close) on a free port;
 * a persistent one keeps its state in a directory of the caller's, dumped every few seconds and on a clean stop, so
 * the next start on that directory continues the same chain.
 */
final class DevChainNode {

    /** How often a persistent node writes its state file besides on stop, so a crash loses seconds at most. */
    static final int STATE_INTERVAL_SECONDS = 5;

    private static final int START_ATTEMPTS = 3;

    private final DevChainFiles files;
    private final Path dir;
    private final boolean persistent;
    private final int port;
    private final ChainRpc rpc;
    private AnvilNode node;
    private long lastBlockTimestamp;

    private DevChainNode(DevChainFiles files, Path dir, boolean persistent, int port, ChainRpc rpc, AnvilNode node) {
        this.files = files;
        this.dir = dir;
        this.persistent = persistent;
        this.port = port;
        this.rpc = rpc;
        this.node = node;
    }

    /**
     * Starts anvil and returns once it answers.
     *
     * @param requestedPort the port, or 0 for a free one (then a port taken meanwhile is retried with another)
     * @param stateDir      where the state lives and survives, or null for a temporary node
     */
    static DevChainNode start(DevChainFiles files, int requestedPort, Path stateDir) {
        Path dir = stateDir != null ? stateDir : createTempDirectory();
        boolean persistent = stateDir != null;
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        boolean loadsState = Files.isRegularFile(dir.resolve("state.json"));
        for (int attempt = 1; ; attempt++) {
            int port = requestedPort != 0 ? requestedPort : freePort();
            ChainRpc rpc = new ChainRpc("http://127.0.0.1:" + port);
            try {
                AnvilNode node = AnvilNode.start(
                        files.anvil(),
                        port,
                        dir.resolve("state.json"),
                        persistent ? STATE_INTERVAL_SECONDS : 0,
                        dir.resolve("anvil.log"),
                        rpc.web3j());
                DevChainNode started = new DevChainNode(files, dir, persistent, port, rpc, node);
                if (loadsState) {
                    started.setTimeAfter(started.latestBlockTimestamp());
                }
                return started;
            } catch (RuntimeException e) {
                rpc.shutdown();
                if (requestedPort != 0 || attempt == START_ATTEMPTS) { // a free port may be taken before anvil binds it
                    if (!persistent) {
                        deleteQuietly(dir);
                    }
                    throw e;
                }
            }
        }
    }

    ChainRpc rpc() {
        return rpc;
    }

    int port() {
        return port;
    }

    /** The anvil process's pid. */
    synchronized long pid() {
        if (node == null) {
            throw new IllegalStateException("the dev chain is not running");
        }
        return node.pid();
    }

    /** Stops anvil (SIGTERM: it writes its state file) so the port no longer answers until {@link #resume()}. */
    synchronized void pause() {
        if (node == null) {
            throw new IllegalStateException("the dev chain is not running");
        }
        lastBlockTimestamp = latestBlockTimestamp();
        Path stateFile = dir.resolve("state.json");
        if (!persistent) {
            try {
                Files.deleteIfExists(stateFile); // anvil read it at start; it writes a fresh one on stop
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        node.stop();
        node = null;
        if (!Files.isRegularFile(stateFile)) {
            throw new IllegalStateException("anvil stopped without writing its state to " + stateFile);
        }
    }

    /** Starts anvil again on the same port and state file, its clock no earlier than the last block. */
    synchronized void resume() {
        if (node != null) {
            throw new IllegalStateException("the dev chain is not paused");
        }
        node = AnvilNode.start(
                files.anvil(),
                port,
                dir.resolve("state.json"),
                persistent ? STATE_INTERVAL_SECONDS : 0,
                dir.resolve("anvil.log"),
                rpc.web3j());
        setTimeAfter(lastBlockTimestamp);
    }

    /**
     * A persistent node is stopped cleanly (its state written) and its directory kept; a temporary one is killed and
     * its directory deleted.
     */
    synchronized void close() {
        try {
            if (node != null) {
                if (persistent) {
                    node.stop();
                } else {
                    node.kill();
                }
                node = null;
            }
        } finally {
            rpc.shutdown();
            if (!persistent) {
                deleteQuietly(dir);
            }
        }
    }

    /**
     * anvil restarts its clock at wall-clock time; on a chain loaded from a file whose last block lies ahead of it
     * (after {@code evm_increaseTime}) new blocks would be older than their parents, so the clock moves past it.
     */
    private void setTimeAfter(long blockTimestamp) {
        if (blockTimestamp >= System.currentTimeMillis() / 1000) {
            rpc.custom("evm_setTime", blockTimestamp + 1);
        }
    }

    private long latestBlockTimestamp() {
        return rpc.send(rpc.web3j().ethGetBlockByNumber(DefaultBlockParameterName.LATEST, false))
                .getBlock()
                .getTimestamp()
                .longValueExact();
    }

    private static Path createTempDirectory() {
        try {
            return Files.createTempDirectory("dev-chain-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try {
            DirectoryTree.delete(dir);
        } catch (IOException | RuntimeException e) {
            System.err.println("[test-support] could not delete " + dir + ": " + e);
        }
    }
}
