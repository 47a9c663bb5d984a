package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the launcher shows paths and the end of a log in its messages. */
class StackConsoleTest {

    @Test
    void pathsUnderTheWorkingDirectoryAreShownRelative() {
        Path cwd = Path.of("").toAbsolutePath();

        assertThat(StackConsole.path(cwd.resolve(".local/logs/gateway.log"))).isEqualTo(".local/logs/gateway.log");
        assertThat(StackConsole.path(Path.of("/elsewhere/x"))).isEqualTo("/elsewhere/x");
        assertThat(StackConsole.path(null)).isEqualTo("?");
    }

    @Test
    void theLastLinesComeIndentedAfterASentenceThatNamesTheLog(@TempDir Path dir) throws Exception {
        Path log = Files.writeString(dir.resolve("service.log"), "one\ntwo\nthree\nfour\n");

        assertThat(StackConsole.logTail(log, 2)).isEqualTo("; its last 2 lines:\n    three\n    four\n");
        assertThat(StackConsole.logTail(log, 20)).startsWith("; its last 4 lines:\n    one\n");
    }

    @Test
    void anEmptyOrMissingLogEndsTheSentence(@TempDir Path dir) throws Exception {
        assertThat(StackConsole.logTail(Files.writeString(dir.resolve("empty.log"), ""), 20))
                .isEqualTo(". ");
        assertThat(StackConsole.logTail(dir.resolve("missing.log"), 20)).isEqualTo(". ");
    }
}
