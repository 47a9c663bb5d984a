package dev.cryptopay.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryTreeTest {

    @Test
    void deletesTheDirectoryWithEverythingBelowIt(@TempDir Path temp) throws Exception {
        Path dir = temp.resolve("data");
        Files.createDirectories(dir.resolve("a/b"));
        Files.writeString(dir.resolve("a/b/file.txt"), "x");
        Files.writeString(dir.resolve("top.txt"), "y");

        DirectoryTree.delete(dir);

        assertThat(dir).doesNotExist();
        assertThat(temp).exists();
    }

    @Test
    void aMissingDirectoryIsNothingToDo(@TempDir Path temp) throws Exception {
        DirectoryTree.delete(temp.resolve("never-created"));

        assertThat(temp.resolve("never-created")).doesNotExist();
    }
}
