package dev.cryptopay.testsupport.chain;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Small helpers for the child processes of the dev chain (npm, node, anvil). */
final class Processes {

    private static final int TAIL_LINES = 30;

    private Processes() {}

    /** Kills a process and every process it started (SIGKILL), and waits up to 10 s for it to be gone. */
    static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The last lines of a log file, for error messages; empty when it cannot be read. */
    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
