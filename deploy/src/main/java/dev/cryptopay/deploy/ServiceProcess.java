package dev.cryptopay.deploy;

import dev.cryptopay.testsupport.DirectoryTree;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * One service run as {@code java [flags] [class-data archive] -jar <image jar>}, its output in a log file.
 *
 * <p>Its image is what it runs from: its built jar unpacked once per content into {@code <data dir>/jars/<service>-<sha256
 * prefix>/} ({@code java -Djarmode=tools -jar app.jar extract}), with a class-data archive beside it, because class-data
 * sharing cannot archive classes read from an executable jar's nested jars (docs/performance.md: the archive saves a
 * third of a start). A build's first run records the archive as the service exits ({@code -XX:ArchiveClassesAtExit},
 * kept only after a graceful exit); later runs map it. An image is never written again, so a rebuild changes nothing a
 * running service reads (a restart keeps its image); older builds' images are deleted at the next start.
 */
final class ServiceProcess {

    /** The JDK running the launcher, so the services run on the same Java. */
    static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();

    static final Duration STOP_GRACE = Duration.ofSeconds(20);

    /** The same while the JVM writes its class-data archive as it exits: several at once on two cores take long. */
    static final Duration RECORDING_STOP_GRACE = Duration.ofSeconds(120);

    final StackService service;
    /** 1, or 2 and up when the stack runs more than one instance of each service. */
    final int instance;
    /** The service's name for its first instance, {@code <service>-<instance>} for the others: in logs and messages. */
    final String name;

    final int port;
    private final StackFiles files;
    private final StackOptions options;
    private final Map<String, String> environment;
    final Path logFile;

    /** The image's jar, once unpacked. */
    Path jar;
    /** Where the running JVM records its class-data archive (null: it maps one), and where it goes after a graceful exit. */
    volatile Path recording;

    private volatile Path recordingArchive;
    volatile Process process;
    private volatile boolean stopRequested;
    private volatile long startedNanos;

    ServiceProcess(
            StackService service, int port, StackFiles files, StackOptions options, Map<String, String> environment) {
        this(service, 1, port, files, options, environment);
    }

    ServiceProcess(
            StackService service,
            int instance,
            int port,
            StackFiles files,
            StackOptions options,
            Map<String, String> environment) {
        this.service = service;
        this.instance = instance;
        this.name = name(service, instance);
        this.port = port;
        this.files = files;
        this.options = options;
        this.environment = Map.copyOf(environment);
        this.logFile = files.serviceLog(name);
    }

    static String name(StackService service, int instance) {
        return instance == 1 ? service.serviceName : service.serviceName + "-" + instance;
    }

    static void checkJars(StackOptions options, boolean runsDevChain) {
        List<String> missing = new ArrayList<>();
        for (StackService service : StackService.values()) {
            Path jar = options.home.resolve(service.jarPath());
            if (options.runs(service, runsDevChain) && !Files.isRegularFile(jar)) {
                missing.add(StackConsole.path(jar));
            }
        }
        if (!missing.isEmpty()) {
            throw new StackStartException("Service jar" + (missing.size() > 1 ? "s" : "") + " not found: "
                    + String.join(", ", missing) + ". Build them first: run ./mvnw -DskipTests install in "
                    + StackConsole.path(options.home) + " (./run-local does this for you).");
        }
    }

    /** Unpacks the built jar unless this run did already (or this build has an image already). */
    synchronized void prepareImage() {
        if (jar != null) {
            return;
        }
        Path builtJar = options.home.resolve(service.jarPath());
        String name = service + "-" + sha256(builtJar);
        Path directory = files.jarsDir.resolve(name);
        try {
            Files.createDirectories(files.jarsDir);
            if (!Files.isRegularFile(directory.resolve(builtJar.getFileName()))) {
                extract(builtJar, files.jarsDir, directory);
            }
            try (Stream<Path> entries = Files.list(files.jarsDir)) {
                for (Path older : entries.filter(p -> p.getFileName().toString().matches(service + "-[0-9a-f]{12}")
                                && !p.getFileName().toString().equals(name))
                        .toList()) {
                    DirectoryTree.delete(older);
                }
            }
        } catch (IOException e) {
            throw new StackStartException("Cannot unpack " + StackConsole.path(builtJar) + " into "
                    + StackConsole.path(directory) + ": " + e.getMessage()
                    + ". Set STACK_DATA_DIR to a writable directory.");
        }
        jar = directory.resolve(builtJar.getFileName());
    }

    /** Runs from the image another instance of the same service prepared: the built jar is hashed and unpacked once. */
    synchronized void useImageOf(ServiceProcess prepared) {
        jar = prepared.jar;
    }

    /** Whether the last stop was asked for ({@link #stop}) and no start came since: the exit was no crash. */
    boolean stopRequested() {
        return stopRequested;
    }

    /** {@link System#nanoTime()} when the running (or last) process was started. */
    long startedNanos() {
        return startedNanos;
    }

    synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    synchronized void start(boolean truncateLog) {
        if (isRunning()) {
            throw new IllegalStateException(name + " is already running (pid " + process.pid() + ")");
        }
        prepareImage();
        List<String> command = new ArrayList<>();
        command.add(JAVA);
        command.addAll(options.jvmOptions);
        try {
            if (options.classDataSharing) {
                command.addAll(classDataSharingOptions(options.jvmOptions));
            }
            command.addAll(List.of("-jar", jar.toString()));
            Files.createDirectories(logFile.getParent());
            Files.writeString(
                    logFile,
                    "==== " + Instant.now() + " local stack starts " + name + " on port " + port + ": "
                            + String.join(" ", command) + System.lineSeparator(),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE,
                    truncateLog ? StandardOpenOption.TRUNCATE_EXISTING : StandardOpenOption.APPEND);
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(options.dataDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            ServiceEnvironment.applyTo(builder.environment(), environment);
            stopRequested = false;
            startedNanos = System.nanoTime();
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + " (" + String.join(" ", command) + ")", e);
        }
    }

    /** Waits until the readiness endpoint answers UP; returns the seconds since the process started. */
    double awaitReady(Duration timeout, BooleanSupplier abandoned) {
        Process running = process;
        String url = "http://127.0.0.1:" + port + "/actuator/health/readiness";
        String lastAnswer = awaitUp(url, timeout, abandoned, running);
        if (lastAnswer == null) {
            return (System.nanoTime() - startedNanos) / 1e9;
        }
        String log = "Its log is " + StackConsole.path(logFile) + StackConsole.logTail(logFile, 20);
        throw new StackStartException(
                running.isAlive()
                        ? name + " was not ready within " + timeout.toSeconds() + " s (last answer of " + url
                                + ": " + lastAnswer + "). " + log
                                + "If the machine is only slow, allow more time with STACK_READY_TIMEOUT=<seconds>."
                        : name + " stopped with exit code " + running.exitValue() + " while starting. " + log
                                + "Fix what the log says, or run the service alone to look closer (see "
                                + "deploy/README.md).");
    }

    /**
     * Polls {@code url} until it answers 200 with status UP (then null), the process (if any) exits or the timeout
     * passes: then the last answer.
     */
    static String awaitUp(String url, Duration timeout, BooleanSupplier abandoned, Process process) {
        long deadline = System.nanoTime() + timeout.toNanos();
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(2))
                .build();
        String lastAnswer = "no answer yet";
        while (process == null || process.isAlive()) {
            if (abandoned.getAsBoolean()) {
                throw new StackStartException("start abandoned: the stack is stopping");
            }
            try {
                HttpResponse<String> response = SignedClient.HTTP.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
                    return null;
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
                break;
            }
            LockSupport.parkNanos(250_000_000); // an interrupt ends it, and the next poll says so
        }
        return lastAnswer;
    }

    /**
     * SIGTERM (Spring's graceful shutdown), then SIGKILL if it still runs after the grace period; or SIGKILL at once.
     * Either way the exit was asked for: its supervisor does not restart it.
     */
    void stop(boolean kill) {
        stopRequested = true;
        Process running = process;
        if (running == null || !running.isAlive()) {
            return;
        }
        Duration grace = recording != null ? RECORDING_STOP_GRACE : STOP_GRACE;
        try {
            if (!kill) {
                running.destroy();
                if (running.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    exitedGracefully();
                    return;
                }
            }
            running.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            running.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Use the archive recorded for these JVM options, or record it. An archive is valid only for the JDK and options it
     * was recorded with, so its name carries their hash: switching options records another instead of starting
     * without one.
     */
    List<String> classDataSharingOptions(List<String> jvmOptions) throws IOException {
        String key = StackFiles.sha256(System.getProperty("java.home") + "\n" + System.getProperty("java.vm.version")
                        + "\n" + String.join("\n", jvmOptions))
                .substring(0, 12);
        Path archive = jar.resolveSibling("classes-" + key + ".jsa");
        if (Files.isRegularFile(archive)) {
            recording = null;
            return List.of("-XX:SharedArchiveFile=" + archive);
        }
        if (instance > 1) {
            recording = null;
            return List.of(); // the first instance records it; two JVMs must not write one archive
        }
        recording = jar.resolveSibling("classes-" + key + ".jsa.recording");
        recordingArchive = archive;
        Files.deleteIfExists(recording);
        return List.of("-XX:ArchiveClassesAtExit=" + recording);
    }

    /** After a graceful exit: keeps what that run recorded as the archive of later runs. */
    void exitedGracefully() {
        Path done = recording;
        recording = null;
        try {
            if (done != null && Files.isRegularFile(done) && Files.size(done) > 0) {
                Files.move(done, recordingArchive, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            // not kept: the next start records again
        }
    }

    private static void extract(Path builtJar, Path jarsDir, Path directory) throws IOException {
        Path partial = jarsDir.resolve("." + directory.getFileName() + ".partial");
        DirectoryTree.delete(partial);
        DirectoryTree.delete(directory);
        Path log = jarsDir.resolve("." + directory.getFileName() + ".log");
        Process extract = new ProcessBuilder(
                        JAVA,
                        "-Djarmode=tools",
                        "-jar",
                        builtJar.toString(),
                        "extract",
                        "--destination",
                        partial.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            if (!extract.waitFor(2, TimeUnit.MINUTES)) {
                throw new IOException("the extraction did not finish within 120 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unpacking");
        } finally {
            extract.destroyForcibly(); // nothing left to do once it exited
        }
        if (extract.exitValue() != 0 || !Files.isRegularFile(partial.resolve(builtJar.getFileName()))) {
            throw new IOException("java -Djarmode=tools -jar " + builtJar.getFileName() + " extract exited with "
                    + extract.exitValue() + StackConsole.logTail(log, 10));
        }
        Files.deleteIfExists(log);
        Files.move(partial, directory, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String sha256(Path file) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
                in.transferTo(OutputStream.nullOutputStream());
            }
            return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new StackStartException("Cannot read " + StackConsole.path(file) + ": " + e.getMessage());
        }
    }
}
