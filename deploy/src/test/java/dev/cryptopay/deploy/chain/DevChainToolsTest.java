package dev.cryptopay.deploy.chain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevChainToolsTest {

    @Test
    void nodeAndNpmOnThePathAreAllItTakesOnLinuxX86(@TempDir Path bin) throws IOException {
        executable(bin.resolve("node"));
        executable(bin.resolve("npm"));

        assertThat(DevChainTools.missing(Map.of("PATH", "/nonexistent" + File.pathSeparator + bin), "Linux", "amd64"))
                .isEmpty();
    }

    @Test
    void whatIsMissingIsNamed(@TempDir Path bin) throws IOException {
        executable(bin.resolve("node"));
        Files.createFile(bin.resolve("npm")); // there, but not executable

        assertThat(DevChainTools.missing(Map.of("PATH", bin.toString()), "Linux", "amd64"))
                .contains("Node.js 20 and npm (no npm on the PATH)");
        assertThat(DevChainTools.missing(Map.of(), "Linux", "amd64"))
                .contains("Node.js 20 and npm (no node, no npm on the PATH)");
    }

    @Test
    void anotherPlatformHasNoAnvilBinary(@TempDir Path bin) throws IOException {
        executable(bin.resolve("node"));
        executable(bin.resolve("npm"));

        assertThat(DevChainTools.missing(Map.of("PATH", bin.toString()), "Mac OS X", "aarch64"))
                .hasValueSatisfying(missing ->
                        assertThat(missing).startsWith("Linux on x86-64").contains("Mac OS X on aarch64"));
    }

    private static void executable(Path file) throws IOException {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    }
}
