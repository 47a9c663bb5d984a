package dev.cryptopay.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Deletes a directory with everything in it: the data of brokers, databases and launcher runs that are done. */
public final class DirectoryTree {

    private DirectoryTree() {}

    /**
     * Deletes {@code dir} and its contents, deepest first; nothing happens when it does not exist. A file that cannot
     * be deleted is left in place without a word (so is its directory): callers delete throwaway data and go on.
     *
     * @throws IOException when the tree cannot be walked; the caller says in its own words what was not deleted
     */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }
}
