package dev.cryptopay.deploy.process;

import dev.cryptopay.deploy.StackStartException;
import dev.cryptopay.deploy.console.DisplayPath;
import dev.cryptopay.deploy.console.LogTail;
import dev.cryptopay.testsupport.DirectoryTree;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a service runs from: its built jar unpacked once per content into {@code <data dir>/jars/<service>-<sha256
 * prefix>/} (Spring Boot's {@code java -Djarmode=tools -jar app.jar extract}: the application jar plus {@code lib/}),
 * and a class-data-sharing archive of the classes it loads, {@code classes-<runtime hash>.jsa} beside it.
 *
 * <p>Why: an executable Spring Boot jar reads its classes from nested jars through its own class loader, which the
 * JVM's class-data sharing cannot archive; unpacked, the same classes load from plain jars, and the archive maps them
 * pre-parsed and pre-verified at start. Measured in {@code docs/performance.md}: a service's start-up CPU roughly
 * halves.
 *
 * <p>The archive is recorded by a service's first run of a given build ({@code -XX:ArchiveClassesAtExit}: the JVM
 * writes it when it exits, so it holds every class the run loaded, request handling included) and used by every
 * later run ({@code -XX:SharedArchiveFile}). It is recorded under a temporary name and kept only after a graceful exit
 * (a SIGKILL can cut the write short). A JVM that cannot use the archive (another JDK, a changed file) warns in the
 * service log and starts without it. The unpacked directory is never written again once complete, so a rebuild
 * while the stack runs cannot change what a running service reads (a new build gets a new directory at the next
 * start; the older ones are deleted then).
 */
public final class ServiceImage {

    private static final String UNLOCK_DIAGNOSTIC = "-XX:+UnlockDiagnosticVMOptions";
    private static final String ALLOW_AGENT = "-XX:+AllowArchivingWithJavaAgent";
    private static final Duration EXTRACT_TIMEOUT = Duration.ofMinutes(2);

    private final Path directory;
    private final Path jar;
    private volatile Recording recording;

    private ServiceImage(Path directory, Path jar) {
        this.directory = directory;
        this.jar = jar;
    }

    /**
     * The image of {@code builtJar} under {@code jarsDir}: unpacks it when this build has no image yet, and deletes
     * the images of the same service's older builds.
     *
     * @param service the name images of this service start with ({@code gateway}, ...)
     * @throws StackStartException when the jar cannot be read or unpacked
     */
    public static ServiceImage prepare(Path builtJar, Path jarsDir, String service) {
        String name = service + "-" + contentHash(builtJar);
        Path directory = jarsDir.resolve(name);
        Path jar = directory.resolve(builtJar.getFileName());
        try {
            Files.createDirectories(jarsDir);
            if (!Files.isRegularFile(jar)) {
                extract(builtJar, jarsDir, directory);
            }
            deleteOlderImages(jarsDir, service, name);
        } catch (IOException e) {
            throw new StackStartException("Cannot unpack " + DisplayPath.of(builtJar) + " into "
                    + DisplayPath.of(directory) + ": " + e.getMessage()
                    + ". Set STACK_DATA_DIR to a writable directory.");
        }
        return new ServiceImage(directory, jar);
    }

    /** The unpacked application jar to run with {@code -jar} (its manifest's class path names {@code lib/}). */
    public Path jar() {
        return jar;
    }

    /**
     * The JVM options for a start with these {@code jvmOptions} and agent: use the archive recorded for them when
     * there is one, otherwise record it. An archive is valid only for the JDK, the options and the class path it was
     * recorded with (the agent jar is on the class path), so its name carries a hash of them: a change records a new
     * one instead of starting without, and the archives of other options stay (switching back and forth does not
     * record again; they go with the image when the build changes). The JVM refuses to record with an agent unless
     * allowed explicitly (a diagnostic flag), and then maps the archive only with the same flag; the agent here only
     * watches the launcher's process and transforms no class.
     */
    List<String> classDataSharingOptions(List<String> jvmOptions, Path agentJar) {
        String key = runtimeKey(jvmOptions, agentJar);
        Path archive = archive(key);
        if (Files.isRegularFile(archive)) {
            recording = null;
            return List.of(UNLOCK_DIAGNOSTIC, ALLOW_AGENT, "-XX:SharedArchiveFile=" + archive);
        }
        try {
            deleteRecordings();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        recording = new Recording(directory.resolve("classes-" + key + ".jsa.recording"), archive);
        return List.of(UNLOCK_DIAGNOSTIC, ALLOW_AGENT, "-XX:ArchiveClassesAtExit=" + recording.file());
    }

    /**
     * Whether the last start records an archive (written when it exits). Only a start that asked for {@link
     * #classDataSharingOptions} can: without class-data sharing this is always false.
     */
    boolean isRecording() {
        return recording != null;
    }

    /** The archive recorded for a runtime key, present once a run with that key has exited gracefully. */
    Path archive(String key) {
        return directory.resolve("classes-" + key + ".jsa");
    }

    /** After a graceful exit: keeps what that run recorded (if it recorded) as the archive of later runs. */
    void exitedGracefully() {
        Recording done = recording;
        recording = null;
        if (done == null) {
            return;
        }
        try {
            if (Files.isRegularFile(done.file()) && Files.size(done.file()) > 0) {
                Files.move(done.file(), done.archive(), StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            // Not kept: the next start records again.
        }
    }

    /** Recordings left by runs that did not exit gracefully (a SIGKILL may have cut them short). */
    private void deleteRecordings() throws IOException {
        List<Path> recordings;
        try (Stream<Path> entries = Files.list(directory)) {
            recordings = entries.filter(path -> path.getFileName().toString().endsWith(".jsa.recording"))
                    .toList();
        }
        for (Path recording : recordings) {
            Files.deleteIfExists(recording);
        }
    }

    /** What makes an archive valid: the JDK, the JVM options and the agent jar's bytes. */
    static String runtimeKey(List<String> jvmOptions, Path agentJar) {
        MessageDigest digest = sha256();
        digest.update((System.getProperty("java.home") + "\n" + System.getProperty("java.vm.version") + "\n"
                        + String.join("\n", jvmOptions) + "\n")
                .getBytes(StandardCharsets.UTF_8));
        try {
            digest.update(Files.readAllBytes(agentJar));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
    }

    private record Recording(Path file, Path archive) {}

    private static void extract(Path builtJar, Path jarsDir, Path directory) throws IOException {
        Path partial = jarsDir.resolve("." + directory.getFileName() + ".partial");
        DirectoryTree.delete(partial);
        DirectoryTree.delete(directory);
        Path log = jarsDir.resolve("." + directory.getFileName() + ".log");
        Process extract = new ProcessBuilder(
                        ServiceProcess.javaExecutable(),
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
            if (!extract.waitFor(EXTRACT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                extract.destroyForcibly();
                throw new IOException("the extraction did not finish within " + EXTRACT_TIMEOUT.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            extract.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unpacking");
        }
        if (extract.exitValue() != 0 || !Files.isRegularFile(partial.resolve(builtJar.getFileName()))) {
            throw new IOException("java -Djarmode=tools -jar " + builtJar.getFileName() + " extract exited with "
                    + extract.exitValue() + LogTail.of(log, 10));
        }
        Files.deleteIfExists(log);
        Files.move(partial, directory, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void deleteOlderImages(Path jarsDir, String service, String current) throws IOException {
        List<Path> older;
        try (Stream<Path> entries = Files.list(jarsDir)) {
            older = entries.filter(path -> isImageOf(path.getFileName().toString(), service)
                            && !path.getFileName().toString().equals(current))
                    .toList();
        }
        for (Path path : older) {
            DirectoryTree.delete(path);
        }
    }

    /**
     * {@code <service>-<12 hex>}, and what launchers before images left: jar snapshots ({@code <service>-0.1.0-…jar})
     * and their temporary links ({@code .<service>-0.1.0-…jar.<digits>}).
     */
    private static boolean isImageOf(String fileName, String service) {
        return fileName.matches("\\.?" + Pattern.quote(service) + "-([0-9a-f]{12}|\\d.*\\.jar(\\.\\d+)?)");
    }

    private static String contentHash(Path file) {
        MessageDigest digest = sha256();
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
            in.transferTo(OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
        } catch (IOException e) {
            throw new StackStartException("Cannot read " + DisplayPath.of(file) + ": " + e.getMessage());
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
