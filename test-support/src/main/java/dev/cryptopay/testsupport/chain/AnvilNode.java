package dev.cryptopay.testsupport.chain;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.web3j.protocol.Web3j;

/**
 * One running anvil process on 127.0.0.1. Its state lives in memory and is written to {@code stateFile} when it is
 * stopped with {@link #stop()} (anvil's {@code --state}: load on start when the file exists, dump on exit), so a new
 * process started on the same file continues the same chain.
 */
final class AnvilNode {

    static final long CHAIN_ID = 31337;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final Path log;

    private AnvilNode(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts anvil (default mnemonic, so the ten well-known dev accounts; automine) and returns once {@code client}
     * gets an answer to {@code eth_chainId}.
     *
     * @param stateIntervalSeconds also write the state file every that many seconds ({@code --state-interval}); 0:
     *     only on stop
     * @throws IllegalStateException if it exits or does not answer within 30 s (with the end of its output)
     */
    static AnvilNode start(Path binary, int port, Path stateFile, int stateIntervalSeconds, Path log, Web3j client) {
        List<String> command = new ArrayList<>(List.of(
                binary.toString(),
                "--host",
                "127.0.0.1",
                "--port",
                Integer.toString(port),
                "--chain-id",
                Long.toString(CHAIN_ID),
                "--state",
                stateFile.toString(),
                "--quiet"));
        if (stateIntervalSeconds > 0) {
            command.addAll(List.of("--state-interval", Integer.toString(stateIntervalSeconds)));
        }
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + binary + ": " + e.getMessage(), e);
        }
        AnvilNode node = new AnvilNode(process, log);
        node.awaitReady(client, port);
        return node;
    }

    private void awaitReady(Web3j client, int port) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("anvil exited (code " + process.exitValue() + ") before answering on"
                        + " port " + port + "; its output (" + log + "):\n" + Processes.tail(log));
            }
            try {
                client.ethChainId().send();
                return;
            } catch (IOException | RuntimeException e) {
                last = e;
            }
            sleep(50);
        }
        Processes.kill(process);
        throw new IllegalStateException("anvil did not answer eth_chainId on port " + port + " within " + READY_TIMEOUT
                + " (last error: " + last + "); its output (" + log + "):\n" + Processes.tail(log));
    }

    /**
     * Stops anvil with SIGTERM, on which it writes its state file, and waits for it to exit.
     *
     * @throws IllegalStateException if it does not exit within 30 s (it is then killed)
     */
    void stop() {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                Processes.kill(process);
                throw new IllegalStateException("anvil did not stop within " + STOP_TIMEOUT + "; killed it");
            }
        } catch (InterruptedException e) {
            Processes.kill(process);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping anvil", e);
        } finally {
            children.forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** The process's pid. */
    long pid() {
        return process.pid();
    }

    /** Kills anvil and anything it started, without writing its state. */
    void kill() {
        Processes.kill(process);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for anvil", e);
        }
    }
}
