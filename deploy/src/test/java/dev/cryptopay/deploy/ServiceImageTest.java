package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Unpacking real service jars (the gateway's and chain-watcher's, built before this module) and choosing CDS flags. */
class ServiceImageTest {

    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    private static final Path GATEWAY_JAR = REPOSITORY.resolve("gateway/target/gateway-0.1.0-SNAPSHOT.jar");
    private static final Path OTHER_JAR = REPOSITORY.resolve("chain-watcher/target/chain-watcher-0.1.0-SNAPSHOT.jar");

    @Test
    void aBuildIsUnpackedOnceAndARebuildCannotChangeTheImageARunningServiceReads(@TempDir Path dir) throws IOException {
        Path built = dir.resolve("target/gateway-0.1.0-SNAPSHOT.jar");
        Files.createDirectories(built.getParent());
        Files.copy(GATEWAY_JAR, built);
        Path jars = dir.resolve("jars");

        ServiceImage image = ServiceImage.prepare(built, jars, "gateway");
        assertThat(image.jar().getParent().getFileName().toString()).matches("gateway-[0-9a-f]{12}");
        assertThat(image.jar()).isRegularFile().hasFileName("gateway-0.1.0-SNAPSHOT.jar");
        try (Stream<Path> lib = Files.list(image.jar().resolveSibling("lib"))) {
            assertThat(lib.map(p -> p.getFileName().toString())).anyMatch(name -> name.startsWith("spring-core-"));
        }
        byte[] unpacked = Files.readAllBytes(image.jar());
        FileTime unpackedAt = Files.getLastModifiedTime(image.jar().getParent());

        assertThat(ServiceImage.prepare(built, jars, "gateway").jar()).isEqualTo(image.jar());
        assertThat(Files.getLastModifiedTime(image.jar().getParent()))
                .as("not unpacked again")
                .isEqualTo(unpackedAt);

        Files.copy(OTHER_JAR, built, StandardCopyOption.REPLACE_EXISTING); // a rebuild while the service runs
        assertThat(image.jar()).hasBinaryContent(unpacked);

        ServiceImage rebuilt = ServiceImage.prepare(built, jars, "gateway"); // the next start
        assertThat(rebuilt.jar().getParent()).isNotEqualTo(image.jar().getParent());
        assertThat(image.jar().getParent())
                .as("the older build's image is deleted")
                .doesNotExist();
    }

    @Test
    void olderImagesAreDeletedOtherServicesImagesKept(@TempDir Path dir) throws IOException {
        Path jars = dir.resolve("jars");
        Files.createDirectories(jars.resolve("gateway-0123456789ab/lib"));
        Files.createDirectories(jars.resolve("payment-links-service-0123456789ab"));
        Files.createFile(jars.resolve("payment-links-service-0.1.0-SNAPSHOT.jar"));

        ServiceImage image = ServiceImage.prepare(GATEWAY_JAR, jars, "gateway");

        try (Stream<Path> left = Files.list(jars)) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder(
                            image.jar().getParent().getFileName().toString(),
                            "payment-links-service-0123456789ab",
                            "payment-links-service-0.1.0-SNAPSHOT.jar");
        }
    }

    @Test
    void anArchiveIsRecordedKeptAfterAGracefulExitOnlyAndEachRuntimeHasItsOwn(@TempDir Path dir) throws IOException {
        ServiceImage image = ServiceImage.prepare(GATEWAY_JAR, dir.resolve("jars"), "gateway");
        List<String> jvm = List.of("-XX:+UseSerialGC", "-Xmx256m");

        List<String> first = image.classDataSharingOptions(jvm);
        Path recording = recordingIn(first);
        assertThat(image.isRecording()).isTrue();
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
        assertThat(image.isRecording()).isFalse();
        image.exitedGracefully(); // a run that used the archive keeps it as it is
        assertThat(archive).hasContent("archive bytes");

        List<String> otherRuntime = image.classDataSharingOptions(List.of("-Xmx512m"));
        assertThat(otherRuntime).anyMatch(option -> option.startsWith("-XX:ArchiveClassesAtExit="));
        assertThat(archive)
                .as("the archive of the other JVM options stays for when they come back")
                .exists();
        assertThat(image.classDataSharingOptions(jvm)).contains("-XX:SharedArchiveFile=" + archive);
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
