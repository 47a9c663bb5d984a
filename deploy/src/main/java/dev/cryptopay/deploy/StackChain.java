package dev.cryptopay.deploy;

import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.testsupport.chain.DevChain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The stack's dev chain: test-support's {@link DevChain} (anvil, chain id 31337, the test tokens) on a fixed port with
 * its state in {@code <data dir>/chain}, so blocks, balances and chain-watcher's cursor agree across restarts; on a
 * new chain the customer gets every test token. anvil is a program of its own and outlives a killed launcher, so
 * {@code chain/anvil.pid} names it and the next start stops it first (with SIGTERM: it writes its state).
 */
final class StackChain implements AutoCloseable {

    final DevChain devChain;
    private final Path pidFile;

    private StackChain(DevChain devChain, Path pidFile) {
        this.devChain = devChain;
        this.pidFile = pidFile;
    }

    /** Whether the dev chain and chain-watcher run: when wanted and the machine has what they need (else says why). */
    static boolean runs(StackOptions options, StackConsole console) {
        if (!options.devChain) {
            console.say("dev chain and chain-watcher not started (STACK_CHAIN=off)");
            return false;
        }
        Optional<String> missing = options.devChainTools.missing();
        missing.ifPresent(what -> console.say("no dev chain and no chain-watcher: they need " + what + ". Install "
                + "Node.js 20 (it comes with npm) and start again; everything else runs without them."));
        return missing.isEmpty();
    }

    static StackChain start(StackFiles files, int port, StackConsole console) {
        long begin = System.nanoTime();
        Path dir = files.chainDir;
        DevChain chain;
        try {
            chain = new DevChain().port(port).stateIn(dir).start();
        } catch (RuntimeException e) {
            Path log = dir.resolve("anvil.log");
            throw new StackStartException(
                    "The dev chain did not start on 127.0.0.1:" + port + " with its state in " + StackConsole.path(dir)
                            + ": " + StackStartException.rootCause(e) + ". anvil's log is " + StackConsole.path(log)
                            + StackConsole.logTail(log, 20)
                            + "npm and compiler output is in dev-chain/build/*.log. If the "
                            + "state is damaged, delete " + StackConsole.path(dir) + " (./run-local --reset deletes "
                            + "everything); to run without the dev chain and chain-watcher: STACK_CHAIN=off ./run-local.",
                    e);
        }
        StackChain started = new StackChain(chain, dir.resolve("anvil.pid"));
        try {
            Files.writeString(started.pidFile, chain.pid() + "\n");
            if (chain.deployedTokens()) {
                CustomerAccount.fund(chain);
            }
        } catch (IOException | RuntimeException e) {
            started.close();
            throw new StackStartException(
                    "The dev chain started but could not be set up: " + StackStartException.rootCause(e) + ". Delete "
                            + StackConsole.path(dir) + " and start again, or run without it: STACK_CHAIN=off.",
                    e);
        }
        console.say(String.format(
                "dev chain (anvil) ready at %s in %.1f s, %s (state in %s)",
                chain.rpcUrl(),
                (System.nanoTime() - begin) / 1e9,
                chain.deployedTokens()
                        ? "new chain: test tokens deployed, customer account funded"
                        : "the chain of the last run continued",
                StackConsole.path(dir)));
        return started;
    }

    /** Stops the process of {@code chain/anvil.pid} when it is alive and an anvil on this directory's state. */
    static void stopLeftRunning(StackFiles files, StackConsole console) {
        String stateFile = files.chainDir.resolve("state.json").toString();
        for (ProcessHandle anvil : StackFiles.liveProcesses(files.chainDir.resolve("anvil.pid"), stateFile)) {
            if (anvil.info().commandLine().orElse("").contains("anvil")) {
                console.say("stopping the dev chain (anvil, pid " + anvil.pid() + ") an earlier launcher left running");
                StackFiles.stop(anvil, 30);
            }
        }
    }

    @Override
    public void close() {
        try {
            devChain.close();
        } finally {
            try {
                Files.deleteIfExists(pidFile);
            } catch (IOException ignored) {
                // a stale pid file names a dead process or another program: the next start ignores it
            }
        }
    }
}
