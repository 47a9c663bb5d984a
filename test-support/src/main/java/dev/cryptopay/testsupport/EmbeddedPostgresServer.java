package dev.cryptopay.testsupport;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real PostgreSQL server run from the io.zonky.test binaries (Maven Central), so a machine with only a JDK has one.
 * The one place that starts and stops such a server: {@link TestPostgres} uses a throwaway one, the local stack
 * launcher (deploy) one whose data directory is kept between runs. User and password are both {@code postgres}.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

    private static final String HOST = "127.0.0.1";
    private static final String USER = "postgres";
    private static final String PASSWORD = "postgres";
    private static final Duration STARTUP_WAIT = Duration.ofSeconds(90);
    private static final Duration SMART_SHUTDOWN_WAIT = Duration.ofSeconds(20);
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);

    private final EmbeddedPostgres postgres;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /**
     * A server in a new temporary data directory on a free port; zonky deletes the directory when it stops, and a
     * JVM shutdown hook stops it if {@link #close()} is not called first.
     */
    public static EmbeddedPostgresServer startThrowaway() throws IOException {
        return new EmbeddedPostgresServer(EmbeddedPostgres.builder().start());
    }

    /**
     * A server on a fixed port whose data lives in {@code dataDir}: initialised on first use, reused afterwards and
     * never deleted. Its output is appended to {@code logFile}. No JVM shutdown hook: the caller stops it, and a
     * caller that dies without doing so leaves it running (see {@link #leftRunningIn(Path)}).
     */
    public static EmbeddedPostgresServer start(Path dataDir, int port, Path logFile) throws IOException {
        Files.createDirectories(dataDir);
        Files.createDirectories(logFile.toAbsolutePath().getParent());
        return new EmbeddedPostgresServer(EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setPort(port)
                .setRegisterShutdownHook(false)
                .setPGStartupWait(STARTUP_WAIT)
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .setErrorRedirector(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .start());
    }

    /**
     * The postmaster of a server still running on {@code dataDir}: its {@code postmaster.pid} names a live postgres
     * process, so whoever started it died before stopping it (the server is a {@code pg_ctl} daemon and outlives
     * its JVM). Empty when the file is missing, unreadable or stale; PostgreSQL itself copes with a stale one.
     */
    public static Optional<ProcessHandle> leftRunningIn(Path dataDir) {
        Path pidFile = dataDir.resolve("postmaster.pid");
        if (!Files.exists(pidFile)) {
            return Optional.empty();
        }
        try {
            List<String> lines = Files.readAllLines(pidFile);
            long pid = Long.parseLong(lines.get(0).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(EmbeddedPostgresServer::isPostgres);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Stops a postmaster found by {@link #leftRunningIn(Path)}: SIGTERM (a smart shutdown), SIGKILL after 20 s. */
    public static void stop(ProcessHandle postmaster) {
        postmaster.destroy();
        try {
            postmaster.onExit().get(SMART_SHUTDOWN_WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            postmaster.destroyForcibly();
            try {
                postmaster.onExit().get(KILL_WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // whoever starts a server on that directory next reports what is wrong
            }
        }
    }

    /** The server as a {@link PostgresServer}, described as {@code origin} in logs and messages. */
    public PostgresServer server(String origin) {
        return new PostgresServer(origin, HOST, port(), USER, PASSWORD);
    }

    public int port() {
        return postgres.getPort();
    }

    /** Stops the server (a fast shutdown through {@code pg_ctl}); a throwaway server's directory is deleted. */
    @Override
    public void close() throws IOException {
        postgres.close();
    }

    /** Only a process whose command line names postgres: the pid in a stale file may belong to anything by now. */
    private static boolean isPostgres(ProcessHandle process) {
        ProcessHandle.Info info = process.info();
        return info.commandLine().or(info::command).orElse("").contains("postgres");
    }
}
