package dev.cryptopay.deploy.process;

import dev.cryptopay.deploy.StackService;
import dev.cryptopay.deploy.StackStartException;
import dev.cryptopay.deploy.console.DisplayPath;
import dev.cryptopay.deploy.console.LogTail;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One service run as {@code java [flags] [class-data sharing] -javaagent:parent-watch.jar=<pid> -jar <image jar>}, its
 * output in a log file.
 */
public final class ServiceProcess {

    /** How long a stopped service may take to shut down gracefully before it is killed. */
    public static final Duration STOP_GRACE = Duration.ofSeconds(20);

    /**
     * The same when the service records its class-data archive, which the JVM writes as it exits: ~12 s for one
     * service on an idle machine, several at once on two cores take longer.
     */
    public static final Duration RECORDING_STOP_GRACE = Duration.ofSeconds(120);

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private final StackService service;
    private final int port;
    private final ServiceImage image;
    private final Path logFile;
    private final Path workDir;
    private final List<String> jvmOptions;
    private final Path agentJar;
    private final boolean classDataSharing;
    private final Map<String, String> environment;

    private volatile Process process;
    private volatile boolean stopRequested;
    private volatile long startedNanos;

    public ServiceProcess(
            StackService service,
            int port,
            ServiceImage image,
            Path logFile,
            Path workDir,
            List<String> jvmOptions,
            Path agentJar,
            boolean classDataSharing,
            Map<String, String> environment) {
        this.service = service;
        this.port = port;
        this.image = image;
        this.logFile = logFile;
        this.workDir = workDir;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.agentJar = agentJar;
        this.classDataSharing = classDataSharing;
        this.environment = Map.copyOf(environment);
    }

    /** The command of the next start: the class-data options depend on whether an archive was recorded yet. */
    private List<String> command() {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(jvmOptions);
        if (classDataSharing) {
            command.addAll(image.classDataSharingOptions(jvmOptions, agentJar));
        }
        command.add("-javaagent:" + agentJar + "=" + ProcessHandle.current().pid());
        command.add("-jar");
        command.add(image.jar().toString());
        return command;
    }

    /** The JDK running the launcher, so the services run on the same Java. */
    static String javaExecutable() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    public StackService service() {
        return service;
    }

    public int port() {
        return port;
    }

    public Path logFile() {
        return logFile;
    }

    String readinessUrl() {
        return "http://127.0.0.1:" + port + "/actuator/health/readiness";
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    public synchronized Process process() {
        return process;
    }

    /** Whether the last exit was asked for (stop, kill or close) rather than a crash. */
    public boolean stopRequested() {
        return stopRequested;
    }

    /**
     * Starts the process. {@code truncateLog}: start the log afresh (a new launcher run) rather than append (a
     * restart within one run).
     */
    public synchronized Process start(boolean truncateLog) {
        if (isRunning()) {
            throw new IllegalStateException(service + " is already running (pid " + process.pid() + ")");
        }
        List<String> command = command();
        try {
            Files.createDirectories(logFile.getParent());
            String banner = "==== " + Instant.now() + " local stack starts " + service + " on port " + port + ": "
                    + String.join(" ", command) + System.lineSeparator();
            if (truncateLog) {
                Files.writeString(
                        logFile,
                        banner,
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE);
            } else {
                Files.writeString(
                        logFile, banner, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
            builder.environment().putAll(environment);
            stopRequested = false;
            startedNanos = System.nanoTime();
            process = builder.start();
            return process;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + service + " (" + String.join(" ", command) + ")", e);
        }
    }

    /**
     * Waits until the readiness endpoint answers UP; returns the seconds since the process started.
     *
     * @param abandoned true when the caller gave up (the stack is closing); the wait then ends at once
     * @throws StackStartException when the process exits first or the timeout passes, with the log's last lines
     */
    public double awaitReady(Duration timeout, BooleanSupplier abandoned) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastAnswer = "no answer yet";
        Process running = process();
        while (true) {
            if (abandoned.getAsBoolean()) {
                throw new StackStartException(service + " start abandoned: the stack is closing");
            }
            if (running == null || !running.isAlive()) {
                String code = running == null ? "?" : String.valueOf(running.exitValue());
                throw new StackStartException(service + " stopped with exit code " + code + " while starting. Its "
                        + "log is " + DisplayPath.of(logFile) + LogTail.of(logFile, 20)
                        + hint());
            }
            try {
                HttpResponse<String> response = HTTP.send(
                        HttpRequest.newBuilder(URI.create(readinessUrl()))
                                .timeout(Duration.ofSeconds(2))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
                    return (System.nanoTime() - startedNanos) / 1e9;
                }
                lastAnswer = "HTTP " + response.statusCode() + " " + abbreviate(response.body());
            } catch (IOException e) {
                lastAnswer = e instanceof java.net.ConnectException
                        ? "connection refused"
                        : e.getClass().getSimpleName() + " " + e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StackStartException("interrupted while waiting for " + service);
            }
            if (System.nanoTime() > deadline) {
                throw new StackStartException(service + " was not ready within " + timeout.toSeconds() + " s (last "
                        + "answer of " + readinessUrl() + ": " + lastAnswer + "). Its log is "
                        + DisplayPath.of(logFile) + LogTail.of(logFile, 20)
                        + "If the machine is only slow, allow more time with STACK_READY_TIMEOUT=<seconds>.");
            }
            sleep(250);
        }
    }

    /** Waits until {@code url} answers 200 with status UP (a service the stack does not run itself). */
    public static void awaitUp(String url, Duration timeout, BooleanSupplier abandoned, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastAnswer = "no answer yet";
        while (!abandoned.getAsBoolean()) {
            try {
                HttpResponse<String> response = HTTP.send(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(Duration.ofSeconds(2))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
                    return;
                }
                lastAnswer = "HTTP " + response.statusCode();
            } catch (IOException e) {
                lastAnswer = e instanceof java.net.ConnectException ? "connection refused" : String.valueOf(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new StackStartException(what + " was not ready at " + url + " within " + timeout.toSeconds()
                        + " s (last answer: " + lastAnswer + "). Start it with the settings the launcher wrote, or "
                        + "allow more time with STACK_READY_TIMEOUT=<seconds>.");
            }
            sleep(500);
        }
        throw new StackStartException("start abandoned: the stack is stopping");
    }

    /** Whether the running process records its class-data archive, so that stopping it takes longer. */
    public boolean isRecordingArchive() {
        return isRunning() && image.isRecording();
    }

    /**
     * SIGTERM (Spring's graceful shutdown), then SIGKILL if it is still running after {@link #STOP_GRACE} (or {@link
     * #RECORDING_STOP_GRACE}).
     */
    public void stop() {
        Process running;
        synchronized (this) {
            stopRequested = true;
            running = process;
        }
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

    /** SIGKILL ({@code destroyForcibly}), as a crash would; returns once the process is gone. */
    public void kill() {
        Process running;
        synchronized (this) {
            stopRequested = true;
            running = process;
        }
        if (running == null) {
            return;
        }
        running.destroyForcibly();
        try {
            running.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String hint() {
        return "Fix what the log says, or run the service alone to look closer (see deploy/README.md).";
    }

    private static String abbreviate(String text) {
        String flat = text.replaceAll("\\s+", " ").trim();
        return flat.length() > 200 ? flat.substring(0, 200) + "…" : flat;
    }

    private static java.io.File nullDevice() {
        return new java.io.File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
