package dev.cryptopay.deploy.datadir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cryptopay.deploy.StackStartException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirLockTest {

    private static final long ME = ProcessHandle.current().pid();

    @Test
    void claimingWritesThisLauncherAndReleasingRemovesIt(@TempDir Path dir) throws Exception {
        StackLayout layout = new StackLayout(dir);

        DataDirLock lock = DataDirLock.claim(layout);

        assertThat(layout.pidFile()).hasContent(ME + "\n");
        assertThat(DataDirLock.runningLauncher(layout)).contains(ME);
        lock.release();
        assertThat(layout.pidFile()).doesNotExist();
        assertThat(DataDirLock.runningLauncher(layout)).isEmpty();
    }

    @Test
    void aLiveOtherLauncherKeepsTheDirectory(@TempDir Path dir) throws Exception {
        StackLayout layout = new StackLayout(dir);
        Process other = new ProcessBuilder("sleep", "60").start();
        try {
            Files.writeString(layout.pidFile(), other.pid() + "\n");

            assertThatThrownBy(() -> DataDirLock.claim(layout))
                    .isInstanceOf(StackStartException.class)
                    .hasMessageStartingWith("A local stack already runs on ")
                    .hasMessageContaining(" (launcher pid " + other.pid() + "). Use it, or stop it first (Ctrl-C in "
                            + "its terminal, or kill " + other.pid() + "); a second stack needs its own "
                            + "STACK_DATA_DIR and ports.");
            assertThat(layout.pidFile()).hasContent(other.pid() + "\n");
        } finally {
            other.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theFileOfALauncherThatIsGoneOrGarbledIsTakenOver(@TempDir Path dir) throws Exception {
        StackLayout layout = new StackLayout(dir);
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        Files.writeString(layout.pidFile(), gone.pid() + "\n");

        assertThat(DataDirLock.runningLauncher(layout)).isEmpty();
        DataDirLock.claim(layout);
        assertThat(layout.pidFile()).hasContent(ME + "\n");

        Files.writeString(layout.pidFile(), "not a pid\n");
        assertThat(DataDirLock.runningLauncher(layout)).isEmpty();
        DataDirLock.claim(layout);
        assertThat(layout.pidFile()).hasContent(ME + "\n");
    }

    @Test
    void aDirectoryThatCannotBeWrittenSaysWhichVariableMovesIt(@TempDir Path dir) {
        StackLayout layout = new StackLayout(dir.resolve("missing"));

        assertThatThrownBy(() -> DataDirLock.claim(layout))
                .isInstanceOf(StackStartException.class)
                .hasMessageStartingWith("Cannot write ")
                .hasMessageEndingWith(". Set STACK_DATA_DIR to a writable directory.");
    }
}
