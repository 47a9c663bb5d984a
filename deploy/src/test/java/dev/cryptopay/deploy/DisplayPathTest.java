package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DisplayPathTest {

    @Test
    void pathsUnderTheWorkingDirectoryAreShownRelative() {
        Path cwd = Path.of("").toAbsolutePath();

        assertThat(DisplayPath.of(cwd.resolve(".local/logs/gateway.log"))).isEqualTo(".local/logs/gateway.log");
        assertThat(DisplayPath.of(Path.of("/elsewhere/x"))).isEqualTo("/elsewhere/x");
        assertThat(DisplayPath.of(null)).isEqualTo("?");
    }
}
