package dev.cryptopay.deploy;

import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.testsupport.chain.DevChain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The stack's dev chain: test-support's {@link DevChain} (anvil, chain id 31337, the test tokens) on a fixed port with
 * its state in {@code <data dir>/chain}, so blocks, balances and chain-watcher's cursor agree across restarts; on a
 * new chain the customer gets every test token. anvil is a program of its own and outlives a killed launcher, so
 * {@code chain/anvil.pid} names it and the next start stops it first (with SIGTERM: it writes its state).
 */
final class StackChain implements AutoCloseable {

    private final DevChain chain;
    private final Path pidFile;

    private StackChain(DevChain chain, Path pidFile) {
        this.chain = chain;
        this.pidFile = pidFile;
    }

    /** @throws StackStartException naming the port, the log and how to run the stack without the chain */
    static StackChain start(StackFiles files, int port, StackConsole console) {
        long begin = System.nanoTime();
        Path dir = files.chainDir;
        DevChain chain;
        try {
            chain = new DevChain().port(port).stateIn(dir).start();
        } catch (RuntimeException e) {
            Path log = dir.resolve("anvil.log");
            throw new StackStartException(
                    "The dev chain did not start on 127.0.0.1:" + port + " with its state in "
                            + DisplayPath.of(dir) + ": " + StackStartException.rootCause(e) + ". anvil's log is "
                            + DisplayPath.of(log) + LogTail.of(log, 20) + "npm and compiler output is in "
                            + "dev-chain/build/*.log. If the state is damaged, delete " + DisplayPath.of(dir)
                            + " (./run-local --reset deletes everything); to run without the dev chain and chain-watcher: "
                            + "STACK_CHAIN=off ./run-local.",
                    e);
        }
        StackChain started = new StackChain(chain, files.chainPidFile);
        try {
            Files.writeString(started.pidFile, chain.pid() + "\n");
            if (chain.deployedTokens()) {
                CustomerAccount.fund(chain);
            }
        } catch (IOException | RuntimeException e) {
            started.close();
            throw new StackStartException(
                    "The dev chain started but could not be set up: "
                            + StackStartException.rootCause(e) + ". Delete " + DisplayPath.of(dir)
                            + " and start again, or run without it: STACK_CHAIN=off.",
                    e);
        }
        console.say(String.format(
                "dev chain (anvil) ready at %s in %.1f s, %s (state in %s)",
                chain.rpcUrl(),
                (System.nanoTime() - begin) / 1e9,
                chain.deployedTokens()
                        ? "new chain: test tokens deployed, customer account funded"
                        : "the chain of the last run continued",
                DisplayPath.of(dir)));
        return started;
    }

    static void stopLeftRunning(StackFiles files, StackConsole console) {
        leftRunning(files).ifPresent(anvil -> {
            console.say("stopping the dev chain (anvil, pid " + anvil.pid() + ") an earlier launcher left running");
            anvil.destroy();
            try {
                anvil.onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                anvil.destroyForcibly();
            }
        });
    }

    /** The process of {@code chain/anvil.pid} when it is alive and an anvil on this directory's state. */
    static Optional<ProcessHandle> leftRunning(StackFiles files) {
        try {
            long pid = Long.parseLong(Files.readString(files.chainPidFile).trim());
            String stateFile = files.chainDir.resolve("state.json").toString();
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(p -> {
                String command = p.info().commandLine().orElse("");
                return command.contains("anvil") && command.contains(stateFile);
            });
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    String rpcUrl() {
        return chain.rpcUrl();
    }

    DevChain devChain() {
        return chain;
    }

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
