package dev.cryptopay.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code NAME=value} files ({@code secrets.env}, {@code sandbox.env}, {@code stack.env}): one assignment a line, no
 * quotes, so {@code . .local/stack.env} works in a POSIX shell. Written owner-only (0600) where the file system
 * allows, atomically (a crash never leaves half a file).
 */
public final class EnvFile {

    private EnvFile() {}

    /** The file's assignments in order; empty when the file does not exist. Blank and {@code #} lines are skipped. */
    public static Map<String, String> read(Path file) {
        Map<String, String> values = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return values;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String trimmed = line.strip();
                int eq = trimmed.indexOf('=');
                if (eq > 0 && !trimmed.startsWith("#")) {
                    values.put(
                            trimmed.substring(0, eq).strip(),
                            trimmed.substring(eq + 1).strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return values;
    }

    public static void write(Path file, Map<String, String> values) {
        StringBuilder text = new StringBuilder();
        values.forEach(
                (name, value) -> text.append(name).append('=').append(value).append('\n'));
        writePrivate(file, text.toString());
    }

    /** Writes a text file readable by its owner only (0600 on POSIX file systems), replacing it atomically. */
    public static void writePrivate(Path file, String content) {
        try {
            Path dir = Files.createDirectories(file.toAbsolutePath().getParent());
            // On POSIX file systems a temporary file is made owner-only (0600); elsewhere the directory's ACL applies.
            Path temp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
            try {
                Files.writeString(temp, content, StandardCharsets.UTF_8);
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
