package dev.cryptopay.deploy.infrastructure;

import dev.cryptopay.deploy.StackStartException;
import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.deploy.console.DisplayPath;
import dev.cryptopay.deploy.console.LogTail;
import dev.cryptopay.deploy.console.StackConsole;
import dev.cryptopay.deploy.datadir.StackLayout;
import dev.cryptopay.testsupport.chain.DevChain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The stack's dev chain: test-support's {@link DevChain} (anvil, chain id 31337, the test tokens) on a fixed port with
 * its state in {@code <data dir>/chain}, so blocks, balances and chain-watcher's cursor agree across restarts. On a new
 * chain the customer account gets every test token. {@code chain/anvil.pid} names the running anvil: anvil is a
 * program of its own and outlives a launcher that is killed, so the next start stops it first (cleanly: it writes
 * its state).
 */
public final class StackChain implements AutoCloseable {

    private static final long LEFTOVER_STOP_SECONDS = 30;

    private final DevChain chain;
    private final Path pidFile;

    private StackChain(DevChain chain, Path pidFile) {
        this.chain = chain;
        this.pidFile = pidFile;
    }

    /**
     * Starts anvil on 127.0.0.1:port with the state of {@code <data dir>/chain} (a new chain when there is none:
     * tokens deployed, customer funded) and says so.
     *
     * @throws StackStartException naming the port, the log and how to run the stack without the chain
     */
    public static StackChain start(StackLayout layout, int port, StackConsole console) {
        long begin = System.nanoTime();
        Path dir = layout.chainDir();
        DevChain chain;
        try {
            chain = new DevChain().port(port).stateIn(dir).start();
        } catch (RuntimeException e) {
            Path log = dir.resolve("anvil.log");
            throw new StackStartException(
                    "The dev chain did not start on 127.0.0.1:" + port + " with its state in "
                            + DisplayPath.of(dir) + ": " + RootCause.message(e) + ". anvil's log is "
                            + DisplayPath.of(log)
                            + LogTail.of(log, 20)
                            + "npm and compiler output is in dev-chain/build/*.log. If the state is "
                            + "damaged, delete " + DisplayPath.of(dir)
                            + " (./run-local --reset deletes everything); to run "
                            + "without the dev chain and chain-watcher: STACK_CHAIN=off ./run-local.",
                    e);
        }
        StackChain started = new StackChain(chain, layout.chainPidFile());
        try {
            Files.writeString(started.pidFile, chain.pid() + "\n");
            if (chain.deployedTokens()) {
                CustomerAccount.fund(chain);
            }
        } catch (IOException | RuntimeException e) {
            started.close();
            throw new StackStartException(
                    "The dev chain started but could not be set up: " + RootCause.message(e) + ". Delete "
                            + DisplayPath.of(dir) + " and start again, or run without it: STACK_CHAIN=off.",
                    e);
        }
        console.devChainReady(started.rpcUrl(), (System.nanoTime() - begin) / 1e9, chain.deployedTokens(), dir);
        return started;
    }

    /** Stops the anvil an earlier launcher left running on this data directory (SIGTERM, so it writes its state). */
    public static void stopLeftRunning(StackLayout layout, StackConsole console) {
        leftRunning(layout).ifPresent(anvil -> {
            console.stoppingLeftoverChain(anvil.pid());
            anvil.destroy();
            try {
                anvil.onExit().get(LEFTOVER_STOP_SECONDS, TimeUnit.SECONDS);
            } catch (Exception e) {
                anvil.destroyForcibly();
            }
        });
    }

    /** The process named by {@code chain/anvil.pid} when it is alive and is an anvil on this directory's state. */
    static Optional<ProcessHandle> leftRunning(StackLayout layout) {
        try {
            long pid = Long.parseLong(Files.readString(layout.chainPidFile()).trim());
            String stateFile = layout.chainDir().resolve("state.json").toString();
            return ProcessHandle.of(pid)
                    .filter(ProcessHandle::isAlive)
                    .filter(p -> p.info().commandLine().orElse("").contains("anvil")
                            && p.info().commandLine().orElse("").contains(stateFile));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** {@code http://127.0.0.1:<port>}. */
    public String rpcUrl() {
        return chain.rpcUrl();
    }

    /** Whether this start made a new chain (tokens deployed, customer funded) rather than continuing one. */
    public boolean isNew() {
        return chain.deployedTokens();
    }

    /** The chain, for tests that look at balances or blocks. */
    public DevChain devChain() {
        return chain;
    }

    /** Stops anvil cleanly (it writes its state) and deletes {@code chain/anvil.pid}. */
    @Override
    public void close() {
        try {
            chain.close();
        } finally {
            try {
                Files.deleteIfExists(pidFile);
            } catch (IOException ignored) {
                // a stale pid file names a dead process or another program: the next start ignores it
            }
        }
    }
}
