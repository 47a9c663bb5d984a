package dev.cryptopay.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StackFilesLockTest {

    private static final long ME = ProcessHandle.current().pid();

    @Test
    void claimingWritesThisLauncherAndReleasingRemovesIt(@TempDir Path dir) throws Exception {
        StackFiles layout = new StackFiles(dir);

        layout.claim();

        assertThat(layout.launcherPidFile).hasContent(ME + "\n");
        assertThat(layout.runningLauncher()).contains(ME);
        layout.release();
        assertThat(layout.launcherPidFile).doesNotExist();
        assertThat(layout.runningLauncher()).isEmpty();
    }

    @Test
    void aLiveOtherLauncherKeepsTheDirectory(@TempDir Path dir) throws Exception {
        StackFiles layout = new StackFiles(dir);
        Process other = new ProcessBuilder("sleep", "60").start();
        try {
            Files.writeString(layout.launcherPidFile, other.pid() + "\n");

            assertThatThrownBy(() -> layout.claim())
                    .isInstanceOf(StackStartException.class)
                    .hasMessageStartingWith("A local stack already runs on ")
                    .hasMessageContaining(" (launcher pid " + other.pid() + "). Use it, or stop it first (Ctrl-C in "
                            + "its terminal, or kill " + other.pid() + "); a second stack needs its own "
                            + "STACK_DATA_DIR and ports.");
            assertThat(layout.launcherPidFile).hasContent(other.pid() + "\n");
        } finally {
            other.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theFileOfALauncherThatIsGoneOrGarbledIsTakenOver(@TempDir Path dir) throws Exception {
        StackFiles layout = new StackFiles(dir);
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        Files.writeString(layout.launcherPidFile, gone.pid() + "\n");

        assertThat(layout.runningLauncher()).isEmpty();
        layout.claim();
        assertThat(layout.launcherPidFile).hasContent(ME + "\n");

        Files.writeString(layout.launcherPidFile, "not a pid\n");
        assertThat(layout.runningLauncher()).isEmpty();
        layout.claim();
        assertThat(layout.launcherPidFile).hasContent(ME + "\n");
    }

    @Test
    void aDirectoryThatCannotBeWrittenSaysWhichVariableMovesIt(@TempDir Path dir) {
        StackFiles layout = new StackFiles(dir.resolve("missing"));

        assertThatThrownBy(() -> layout.claim())
                .isInstanceOf(StackStartException.class)
                .hasMessageStartingWith("Cannot write ")
                .hasMessageEndingWith(". Set STACK_DATA_DIR to a writable directory.");
    }
}
