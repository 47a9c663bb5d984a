package dev.cryptopay.deploy.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JarSnapshotsTest {

    @Test
    void aRebuildWritingANewJarAtTheOldPathLeavesTheSnapshotAsItWas(@TempDir Path dir) throws Exception {
        Path built = Files.writeString(dir.resolve("gateway-0.1.0-SNAPSHOT.jar"), "first build");
        Path jars = dir.resolve(".local/jars");

        Path snapshot = JarSnapshots.snapshot(built, jars);
        Path rebuilt = dir.resolve("new.jar");
        Files.writeString(rebuilt, "second build");
        Files.move(rebuilt, built, java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        assertThat(snapshot)
                .isEqualTo(jars.resolve("gateway-0.1.0-SNAPSHOT.jar"))
                .hasContent("first build");
        assertThat(JarSnapshots.snapshot(built, jars)).hasContent("second build");
        try (var left = Files.list(jars)) {
            assertThat(left).as("no temporary files left").hasSize(1);
        }
    }
}
