package dev.cryptopay.deploy;

import dev.cryptopay.testsupport.DirectoryTree;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What a service runs from: its built jar unpacked once per content into {@code <data dir>/jars/<service>-<sha256
 * prefix>/} ({@code java -Djarmode=tools -jar app.jar extract}) and a class-data archive beside it.
 *
 * <p>Why: class-data sharing cannot archive classes read from an executable jar's nested jars; unpacked, they load
 * from plain jars, and the archive maps them pre-parsed and pre-verified. docs/performance.md measured the suite ready
 * in 49 s with archives, 62 s without. A service's first run of a build records the archive as it exits ({@code
 * -XX:ArchiveClassesAtExit}, kept only after a graceful exit: a SIGKILL can cut the write short); later runs map it.
 * The unpacked directory is never written again, so a rebuild while the stack runs changes nothing a running service
 * reads; a new build gets a new directory at the next start and the older ones are deleted then.
 */
final class ServiceImage {

    private final Path directory;
    private final Path jar;
    private volatile Path recording;
    private volatile Path recordingArchive;

    private ServiceImage(Path directory, Path jar) {
        this.directory = directory;
        this.jar = jar;
    }

    /** The image of {@code builtJar} under {@code jarsDir}, unpacked when this build has none yet. */
    static ServiceImage prepare(Path builtJar, Path jarsDir, String service) {
        String name = service + "-" + sha256(builtJar, null);
        Path directory = jarsDir.resolve(name);
        Path jar = directory.resolve(builtJar.getFileName());
        try {
            Files.createDirectories(jarsDir);
            if (!Files.isRegularFile(jar)) {
                extract(builtJar, jarsDir, directory);
            }
            List<Path> older;
            try (Stream<Path> entries = Files.list(jarsDir)) {
                older = entries.filter(p -> p.getFileName().toString().matches(service + "-[0-9a-f]{12}")
                                && !p.getFileName().toString().equals(name))
                        .toList();
            }
            for (Path path : older) {
                DirectoryTree.delete(path);
            }
        } catch (IOException e) {
            throw new StackStartException("Cannot unpack " + DisplayPath.of(builtJar) + " into "
                    + DisplayPath.of(directory) + ": " + e.getMessage()
                    + ". Set STACK_DATA_DIR to a writable directory.");
        }
        return new ServiceImage(directory, jar);
    }

    Path jar() {
        return jar;
    }

    /**
     * Use the archive recorded for these JVM options, or record it. An archive is valid only for the JDK and options it
     * was recorded with, so its name carries their hash: switching options records another instead of starting
     * without one.
     */
    List<String> classDataSharingOptions(List<String> jvmOptions) throws IOException {
        String key = sha256(
                null,
                System.getProperty("java.home") + "\n" + System.getProperty("java.vm.version") + "\n"
                        + String.join("\n", jvmOptions));
        Path archive = directory.resolve("classes-" + key + ".jsa");
        if (Files.isRegularFile(archive)) {
            recording = null;
            return List.of("-XX:SharedArchiveFile=" + archive);
        }
        recording = directory.resolve("classes-" + key + ".jsa.recording");
        recordingArchive = archive;
        Files.deleteIfExists(recording);
        return List.of("-XX:ArchiveClassesAtExit=" + recording);
    }

    /** Whether the last start records an archive, which makes its exit take longer. */
    boolean isRecording() {
        return recording != null;
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
            if (!extract.waitFor(2, TimeUnit.MINUTES)) {
                extract.destroyForcibly();
                throw new IOException("the extraction did not finish within 120 s");
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

    /** The first 12 hex digits of the SHA-256 of the file, or else of the text. */
    private static String sha256(Path file, String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            if (file == null) {
                digest.update(text.getBytes(StandardCharsets.UTF_8));
            } else {
                try (InputStream in = new DigestInputStream(Files.newInputStream(file), digest)) {
                    in.transferTo(OutputStream.nullOutputStream());
                }
            }
            return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
        } catch (IOException e) {
            throw new StackStartException("Cannot read " + DisplayPath.of(file) + ": " + e.getMessage());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
