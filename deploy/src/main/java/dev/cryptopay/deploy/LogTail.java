package dev.cryptopay.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The last lines of a log, quoted in a failure message so the reader need not open the file. */
final class LogTail {

    private LogTail() {}

    /** "; its last N lines:\n    ...\n" (ready to go after a sentence naming the log), or ". " when it is empty. */
    static String of(Path logFile, int lines) {
        List<String> all;
        try {
            all = List.of(new String(Files.readAllBytes(logFile), StandardCharsets.UTF_8).split("\\R"));
        } catch (IOException e) {
            return ". ";
        }
        List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
        if (last.isEmpty() || (last.size() == 1 && last.get(0).isBlank())) {
            return ". ";
        }
        StringBuilder text =
                new StringBuilder("; its last ").append(last.size()).append(" lines:\n");
        last.forEach(line -> text.append("    ").append(line).append('\n'));
        return text.toString();
    }
}
