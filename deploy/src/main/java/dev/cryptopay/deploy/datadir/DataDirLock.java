package dev.cryptopay.deploy.datadir;

import dev.cryptopay.deploy.StackStartException;
import dev.cryptopay.deploy.console.DisplayPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One launcher per data directory: two would share Kafka's and PostgreSQL's files. {@code launcher.pid} holds the
 * launcher's pid; it also lets {@code ./run-local} refuse to rebuild the jars under a running stack (its JVMs read
 * classes from them).
 */
public final class DataDirLock {

    private final Path pidFile;

    private DataDirLock(Path pidFile) {
        this.pidFile = pidFile;
    }

    /**
     * Writes this process's pid to {@code launcher.pid}.
     *
     * @throws StackStartException when another live launcher holds the directory, or the file cannot be written
     */
    public static DataDirLock claim(StackLayout layout) {
        Path pidFile = layout.pidFile();
        long me = ProcessHandle.current().pid();
        Optional<Long> other = runningLauncher(layout).filter(pid -> pid != me);
        if (other.isPresent()) {
            throw new StackStartException("A local stack already runs on " + DisplayPath.of(layout.root())
                    + " (launcher pid " + other.get() + "). Use it, or stop it first (Ctrl-C in its terminal, or "
                    + "kill " + other.get() + "); a second stack needs its own STACK_DATA_DIR and ports.");
        }
        try {
            Files.writeString(pidFile, me + "\n");
            return new DataDirLock(pidFile);
        } catch (IOException e) {
            throw new StackStartException("Cannot write " + DisplayPath.of(pidFile) + ": " + e.getMessage()
                    + ". Set STACK_DATA_DIR to a writable directory.");
        }
    }

    /** The pid in {@code launcher.pid} when that process is alive. */
    public static Optional<Long> runningLauncher(StackLayout layout) {
        try {
            long pid = Long.parseLong(Files.readString(layout.pidFile()).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(ProcessHandle::pid);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Deletes {@code launcher.pid}. */
    public void release() throws IOException {
        Files.deleteIfExists(pidFile);
    }

    public Path pidFile() {
        return pidFile;
    }
}
