package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service's image: unpacking real service jars (the gateway's and chain-watcher's, built before this module) and
 * choosing CDS flags.
 */
class ServiceImageTest {

    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    private static final Path GATEWAY_JAR = REPOSITORY.resolve("gateway/target/gateway-0.1.0-SNAPSHOT.jar");
    private static final Path OTHER_JAR = REPOSITORY.resolve("chain-watcher/target/chain-watcher-0.1.0-SNAPSHOT.jar");

    @Test
    void aBuildIsUnpackedOnceAndARebuildCannotChangeTheImageARunningServiceReads(@TempDir Path dir) throws IOException {
        Path built = build(dir, GATEWAY_JAR);

        Path image = imageOf(dir);
        assertThat(image.getParent().getFileName().toString()).matches("gateway-[0-9a-f]{12}");
        assertThat(image.getParent().getParent()).isEqualTo(dir.resolve(".local/jars"));
        assertThat(image).isRegularFile().hasFileName("gateway-0.1.0-SNAPSHOT.jar");
        try (Stream<Path> lib = Files.list(image.resolveSibling("lib"))) {
            assertThat(lib.map(p -> p.getFileName().toString())).anyMatch(name -> name.startsWith("spring-core-"));
        }
        byte[] unpacked = Files.readAllBytes(image);
        FileTime unpackedAt = Files.getLastModifiedTime(image.getParent());

        assertThat(imageOf(dir)).isEqualTo(image);
        assertThat(Files.getLastModifiedTime(image.getParent()))
                .as("not unpacked again")
                .isEqualTo(unpackedAt);

        Files.copy(OTHER_JAR, built, StandardCopyOption.REPLACE_EXISTING); // a rebuild while the service runs
        assertThat(image).hasBinaryContent(unpacked);

        Path rebuilt = imageOf(dir); // the next start
        assertThat(rebuilt.getParent()).isNotEqualTo(image.getParent());
        assertThat(image.getParent()).as("the older build's image is deleted").doesNotExist();
    }

    @Test
    void aRestartWithinARunKeepsItsImage(@TempDir Path dir) throws IOException {
        Path built = build(dir, GATEWAY_JAR);
        ServiceProcess gateway = gateway(dir);
        gateway.prepareImage();
        Path image = gateway.jar;

        Files.copy(OTHER_JAR, built, StandardCopyOption.REPLACE_EXISTING);
        gateway.prepareImage();

        assertThat(gateway.jar).isEqualTo(image).isRegularFile();
    }

    @Test
    void olderImagesAreDeletedOtherServicesImagesKept(@TempDir Path dir) throws IOException {
        Path jars = dir.resolve(".local/jars");
        Files.createDirectories(jars.resolve("gateway-0123456789ab/lib"));
        Files.createDirectories(jars.resolve("payment-links-service-0123456789ab"));
        Files.createFile(jars.resolve("payment-links-service-0.1.0-SNAPSHOT.jar"));
        build(dir, GATEWAY_JAR);

        Path image = imageOf(dir);

        try (Stream<Path> left = Files.list(jars)) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder(
                            image.getParent().getFileName().toString(),
                            "payment-links-service-0123456789ab",
                            "payment-links-service-0.1.0-SNAPSHOT.jar");
        }
    }

    @Test
    void anArchiveIsRecordedKeptAfterAGracefulExitOnlyAndEachRuntimeHasItsOwn(@TempDir Path dir) throws IOException {
        build(dir, GATEWAY_JAR);
        ServiceProcess image = gateway(dir);
        image.prepareImage();
        List<String> jvm = List.of("-XX:+UseSerialGC", "-Xmx256m");

        List<String> first = image.classDataSharingOptions(jvm);
        Path recording = recordingIn(first);
        assertThat(image.recording).isEqualTo(recording);
        Files.writeString(recording, "a run killed while writing");
        assertThat(image.classDataSharingOptions(jvm))
                .as("a recording not kept by a graceful exit is not used")
                .anyMatch(option -> option.startsWith("-XX:ArchiveClassesAtExit="));
        assertThat(recording).doesNotExist();

        Files.writeString(recording, "archive bytes");
        image.exitedGracefully();
        Path archive =
                recording.resolveSibling(recording.getFileName().toString().replace(".recording", ""));
        assertThat(archive).hasContent("archive bytes");
        assertThat(image.classDataSharingOptions(jvm)).containsExactly("-XX:SharedArchiveFile=" + archive);
        assertThat(image.recording).isNull();
        image.exitedGracefully(); // a run that used the archive keeps it as it is
        assertThat(archive).hasContent("archive bytes");

        List<String> otherRuntime = image.classDataSharingOptions(List.of("-Xmx512m"));
        assertThat(otherRuntime).anyMatch(option -> option.startsWith("-XX:ArchiveClassesAtExit="));
        assertThat(archive)
                .as("the archive of the other JVM options stays for when they come back")
                .exists();
        assertThat(image.classDataSharingOptions(jvm)).contains("-XX:SharedArchiveFile=" + archive);
    }

    /** Copies a jar to where a build of the gateway in the checkout {@code home} puts it. */
    private static Path build(Path home, Path jar) throws IOException {
        Path built = home.resolve(StackService.GATEWAY.jarPath());
        Files.createDirectories(built.getParent());
        Files.copy(jar, built, StandardCopyOption.REPLACE_EXISTING);
        return built;
    }

    /** The gateway of a stack on the checkout {@code home}, with its data in {@code home/.local}; not started. */
    private static ServiceProcess gateway(Path home) {
        StackOptions options = new StackOptions();
        options.home = home;
        return new ServiceProcess(StackService.GATEWAY, 0, new StackFiles(home.resolve(".local")), options, Map.of());
    }

    /** The image jar a new run's first start of the gateway runs from. */
    private static Path imageOf(Path home) {
        ServiceProcess gateway = gateway(home);
        gateway.prepareImage();
        return gateway.jar;
    }

    private static Path recordingIn(List<String> options) {
        String prefix = "-XX:ArchiveClassesAtExit=";
        return Path.of(options.stream()
                .filter(option -> option.startsWith(prefix))
                .findFirst()
                .orElseThrow()
                .substring(prefix.length()));
    }
}
