package dev.cryptopay.deploy;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** One service run as {@code java [flags] [class-data archive] -jar <image jar>}, its output in a log file. */
final class ServiceProcess {

    static final Duration STOP_GRACE = Duration.ofSeconds(20);

    /** The same while the JVM writes its class-data archive as it exits: several at once on two cores take long. */
    static final Duration RECORDING_STOP_GRACE = Duration.ofSeconds(120);

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private final StackService service;
    private final int port;
    private final ServiceImage image;
    private final Path logFile;
    private final StackOptions options;
    private final Map<String, String> environment;

    private volatile Process process;
    private volatile boolean stopRequested;
    private volatile long startedNanos;

    ServiceProcess(
            StackService service,
            int port,
            ServiceImage image,
            Path logFile,
            StackOptions options,
            Map<String, String> environment) {
        this.service = service;
        this.port = port;
        this.image = image;
        this.logFile = logFile;
        this.options = options;
        this.environment = Map.copyOf(environment);
    }

    /** The JDK running the launcher, so the services run on the same Java. */
    static String javaExecutable() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    StackService service() {
        return service;
    }

    int port() {
        return port;
    }

    Process process() {
        return process;
    }

    synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    synchronized void start(boolean truncateLog) {
        if (isRunning()) {
            throw new IllegalStateException(service + " is already running (pid " + process.pid() + ")");
        }
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(options.jvmOptions);
        try {
            if (options.classDataSharing) {
                command.addAll(image.classDataSharingOptions(options.jvmOptions));
            }
            command.add("-jar");
            command.add(image.jar().toString());
            Files.createDirectories(logFile.getParent());
            Files.writeString(
                    logFile,
                    "==== " + Instant.now() + " local stack starts " + service + " on port " + port + ": "
                            + String.join(" ", command) + System.lineSeparator(),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE,
                    truncateLog ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.APPEND);
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(options.dataDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().putAll(environment);
            stopRequested = false;
            startedNanos = System.nanoTime();
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + service + " (" + String.join(" ", command) + ")", e);
        }
    }

    /**
     * Waits until the readiness endpoint answers UP; returns the seconds since the process started.
     *
     * @throws StackStartException when the process exits first or the timeout passes, with the log's last lines
     */
    double awaitReady(Duration timeout, BooleanSupplier abandoned) {
        Process running = process;
        String url = "http://127.0.0.1:" + port + "/actuator/health/readiness";
        awaitUp(
                url,
                timeout,
                abandoned,
                () -> {
                    if (!running.isAlive()) {
                        throw new StackStartException(
                                service + " stopped with exit code " + running.exitValue()
                                        + " while starting. Its log is " + DisplayPath.of(logFile)
                                        + LogTail.of(logFile, 20)
                                        + "Fix what the log says, or run the service alone to look closer (see deploy/README.md).");
                    }
                },
                lastAnswer ->
                        service + " was not ready within " + timeout.toSeconds() + " s (last answer of " + url + ": "
                                + lastAnswer + "). Its log is " + DisplayPath.of(logFile)
                                + LogTail.of(logFile, 20) + "If the machine is only slow, allow more time with "
                                + "STACK_READY_TIMEOUT=<seconds>.");
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    /**
     * Polls {@code url} until it answers 200 with status UP.
     *
     * @param check   runs before each poll; throws to give up (the process exited)
     * @param timeout the message for a timeout, given the last answer
     */
    static void awaitUp(
            String url,
            Duration timeout,
            BooleanSupplier abandoned,
            Runnable check,
            java.util.function.Function<String, String> timedOut) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastAnswer = "no answer yet";
        while (true) {
            if (abandoned.getAsBoolean()) {
                throw new StackStartException("start abandoned: the stack is stopping");
            }
            check.run();
            try {
                HttpResponse<String> response = HTTP.send(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
                    return;
                }
                String body = response.body().replaceAll("\\s+", " ").trim();
                lastAnswer = "HTTP " + response.statusCode() + " "
                        + (body.length() > 200 ? body.substring(0, 200) + "…" : body);
            } catch (IOException e) {
                lastAnswer = e instanceof ConnectException ? "connection refused" : String.valueOf(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StackStartException("interrupted while waiting for " + url);
            }
            if (System.nanoTime() > deadline) {
                throw new StackStartException(timedOut.apply(lastAnswer));
            }
            sleep(250);
        }
    }

    boolean isRecordingArchive() {
        return isRunning() && image.isRecording();
    }

    /** SIGTERM (Spring's graceful shutdown), then SIGKILL if it still runs after the grace period. */
    void stop() {
        stopRequested = true;
        Process running = process;
        if (running == null || !running.isAlive()) {
            return;
        }
        Duration grace = image.isRecording() ? RECORDING_STOP_GRACE : STOP_GRACE;
        running.destroy();
        try {
            if (running.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                image.exitedGracefully();
            } else {
                running.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            running.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    void kill() {
        stopRequested = true;
        Process running = process;
        if (running != null) {
            running.destroyForcibly();
            try {
                running.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Says so when the process running now exits unasked while the stack runs; the rest keeps running. Ctrl-C in a
     * terminal signals the services too, so they may exit a moment before the shutdown hook marks the stack closed:
     * the exit is looked at a second later.
     */
    void watch(BooleanSupplier stackClosing, StackConsole console) {
        Process running = process;
        if (running == null) {
            return;
        }
        running.onExit()
                .thenAcceptAsync(
                        exited -> {
                            if (stackClosing.getAsBoolean() || stopRequested || process != running) {
                                return;
                            }
                            int code = exited.exitValue();
                            if (code == 130 || code == 143) {
                                console.say(service + " was stopped by a signal from outside the launcher (exit code "
                                        + code + "); the rest keeps running");
                            } else {
                                console.say(service + " exited unexpectedly with code " + code + "; its log is "
                                        + DisplayPath.of(logFile)
                                        + LogTail.of(logFile, 20).stripTrailing());
                            }
                        },
                        CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
