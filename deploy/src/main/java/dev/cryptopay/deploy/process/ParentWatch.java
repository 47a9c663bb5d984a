package dev.cryptopay.deploy.process;

import java.util.Optional;

/**
 * A Java agent the launcher adds to every service JVM ({@code -javaagent:<data dir>/parent-watch.jar=<launcher
 * pid>}) so that no service outlives the launcher, even when the launcher is killed with SIGKILL and its shutdown
 * hook never runs. A daemon thread checks twice a second whether the launcher is still this process's parent; once
 * it is not (the process was re-parented because the launcher died), it exits the JVM normally, which runs Spring's
 * graceful shutdown, and halts it 10 s later if that hangs.
 *
 * <p>Self-contained on purpose (JDK classes only, no nested classes): the launcher writes this one class into a small
 * agent jar at start-up.
 */
public final class ParentWatch {

    private static final long CHECK_INTERVAL_MS = 500;
    private static final long HALT_AFTER_MS = 10_000;

    private ParentWatch() {}

    public static void premain(String args) {
        long launcherPid;
        try {
            launcherPid = Long.parseLong(args == null ? "" : args.trim());
        } catch (NumberFormatException e) {
            System.err.println("[parent-watch] expected the launcher's pid as agent argument, got '" + args + "'");
            return;
        }
        Thread watcher = new Thread(() -> watch(launcherPid), "parent-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    public static void premain(String args, java.lang.instrument.Instrumentation ignored) {
        premain(args);
    }

    private static void watch(long launcherPid) {
        while (true) {
            try {
                Thread.sleep(CHECK_INTERVAL_MS);
            } catch (InterruptedException e) {
                return;
            }
            Optional<ProcessHandle> parent = ProcessHandle.current().parent();
            boolean launcherIsParent = parent.isPresent() && parent.get().pid() == launcherPid;
            boolean launcherAlive =
                    ProcessHandle.of(launcherPid).map(ProcessHandle::isAlive).orElse(false);
            if (!launcherIsParent || !launcherAlive) {
                System.err.println("[parent-watch] the launcher (pid " + launcherPid + ") is gone; stopping");
                Thread halt = new Thread(
                        () -> {
                            try {
                                Thread.sleep(HALT_AFTER_MS);
                            } catch (InterruptedException e) {
                                // halt anyway
                            }
                            Runtime.getRuntime().halt(1);
                        },
                        "parent-watch-halt");
                halt.setDaemon(true);
                halt.start();
                System.exit(1);
                return;
            }
        }
    }
}
