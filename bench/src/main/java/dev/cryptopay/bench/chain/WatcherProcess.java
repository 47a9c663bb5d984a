package dev.cryptopay.bench.chain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * chain-watcher as it runs in production — its executable jar in a JVM of its own — started for one measurement and
 * stopped after it, with its CPU time read from {@code /proc/<pid>/stat} (user + system, Linux).
 */
final class WatcherProcess implements AutoCloseable {

    private static final long TICKS_PER_SECOND = 100; // USER_HZ on Linux
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Process process;
    private final int port;
    private final Path log;

    private WatcherProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts the jar with these environment variables and waits until it is ready. */
    static WatcherProcess start(Path jar, Map<String, String> environment, Path log) {
        return start(jar, environment, List.of(), log);
    }

    /** Starts the jar with these environment variables and extra arguments (settings) and waits until it is ready. */
    static WatcherProcess start(Path jar, Map<String, String> environment, List<String> arguments, Path log) {
        int port = freePort();
        List<String> command = new ArrayList<>(
                List.of(ProcessHandle.current().info().command().orElse("java"), "-XX:+ExitOnOutOfMemoryError"));
        // Extra JVM options of the watcher, e.g. -Dbench.watcherJvmOptions=-XX:StartFlightRecording=filename=w.jfr
        String options = System.getProperty("bench.watcherJvmOptions", "").strip();
        if (!options.isEmpty()) {
            command.addAll(List.of(options.split("\\s+")));
        }
        command.addAll(List.of(
                "-jar",
                jar.toString(),
                // Watches are put in its database by the benchmark: no consumer of payment events.
                "--spring.kafka.listener.auto-startup=false"));
        command.addAll(arguments);
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        builder.environment().put("PORT", Integer.toString(port));
        Process process;
        try {
            Files.createDirectories(log.getParent());
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + jar, e);
        }
        WatcherProcess watcher = new WatcherProcess(process, port, log);
        watcher.awaitReady();
        return watcher;
    }

    /** CPU seconds (user + system) the watcher's JVM has used so far. */
    double cpuSeconds() {
        return cpuSeconds(process.pid());
    }

    /** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
    static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) TICKS_PER_SECOND;
        } catch (IOException | RuntimeException gone) {
            return 0;
        }
    }

    private void awaitReady() {
        HttpClient http = HttpClient.newHttpClient();
        URI readiness = URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness");
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("chain-watcher exited with " + process.exitValue() + "; see " + log);
            }
            try {
                HttpResponse<Void> answer =
                        http.send(HttpRequest.newBuilder(readiness).build(), HttpResponse.BodyHandlers.discarding());
                if (answer.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            pause(Duration.ofMillis(250));
        }
        close();
        throw new IllegalStateException("chain-watcher was not ready within " + START_TIMEOUT + "; see " + log);
    }

    static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
