package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogTailTest {

    @Test
    void theLastLinesComeIndentedAfterASentenceThatNamesTheLog(@TempDir Path dir) throws Exception {
        Path log = Files.writeString(dir.resolve("service.log"), "one\ntwo\nthree\nfour\n");

        assertThat(LogTail.of(log, 2)).isEqualTo("; its last 2 lines:\n    three\n    four\n");
        assertThat(LogTail.of(log, 20)).startsWith("; its last 4 lines:\n    one\n");
    }

    @Test
    void anEmptyOrMissingLogEndsTheSentence(@TempDir Path dir) throws Exception {
        assertThat(LogTail.of(Files.writeString(dir.resolve("empty.log"), ""), 20))
                .isEqualTo(". ");
        assertThat(LogTail.of(dir.resolve("missing.log"), 20)).isEqualTo(". ");
    }
}
