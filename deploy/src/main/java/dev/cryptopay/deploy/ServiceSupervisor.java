package dev.cryptopay.deploy;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Starts a service again when its process exits while the stack runs and nobody asked it to stop, as its
 * {@link RestartPolicy} says: after the back-off, or not at all once it crashed too often (then it says so with the
 * log's last lines and leaves it stopped; the rest keeps running). Every crash and restart is printed, and restarts are
 * counted ({@link LocalStack#restarts}).
 *
 * <p>What is not a crash: an exit the stack asked for ({@link LocalStack#close()}, {@code killService},
 * {@code stopService}; {@link ServiceProcess#stop} marks it), an exit after the stack began to close, and SIGINT or
 * SIGTERM from outside the launcher (exit code 130 or 143: Ctrl-C in the terminal, or someone's {@code kill <pid>}),
 * which gets a one-line note. A SIGKILL from outside ({@code kill -9}, the kernel's out-of-memory killer: 137) or an
 * exit of the service's own is a crash.
 */
final class ServiceSupervisor {

    private static final int LOG_LINES = 20;

    private final ServiceProcess service;
    private final StackServices stack;
    private final RestartPolicy policy;
    private final AtomicInteger restarts = new AtomicInteger();
    private volatile RestartPolicy.Crashes crashes;

    ServiceSupervisor(ServiceProcess service, StackServices stack) {
        this.service = service;
        this.stack = stack;
        this.policy = stack.options.restartPolicy;
        this.crashes = policy.crashes();
    }

    /** How often this service was started again after a crash, in this run of the stack. */
    int restarts() {
        return restarts.get();
    }

    /**
     * Watches the run started just now. A start on purpose (the stack's, {@code startService}) forgets earlier
     * crashes, also after a give-up; a restart keeps counting them.
     */
    void watch(boolean onPurpose) {
        if (onPurpose) {
            crashes = policy.crashes();
        }
        Process run = service.process;
        long startedNanos = service.startedNanos();
        Executor later =
                CompletableFuture.delayedExecutor(policy.exitGrace().toNanos(), TimeUnit.NANOSECONDS, stack.executor);
        run.onExit()
                .thenApply(exited -> new Exit(run, Duration.ofNanos(System.nanoTime() - startedNanos), Instant.now()))
                .thenAcceptAsync(this::exited, later);
    }

    private record Exit(Process run, Duration ranFor, Instant at) {}

    private void exited(Exit exit) {
        if (!isCurrent(exit.run)) {
            return;
        }
        int code = exit.run.exitValue();
        if (code == 130 || code == 143) {
            stack.console.say(service.name + " was stopped by a signal from outside the launcher (exit code " + code
                    + "); not restarted, the rest keeps running");
            return;
        }
        RestartPolicy.Decision decision = crashes.crashed(exit.ranFor, exit.at);
        String crash = "crash " + decision.crash() + " of " + policy.maxCrashes() + " in " + shown(policy.window());
        if (decision.givesUp()) {
            stack.console.say(service.name + " exited with code " + code + " (" + crash + "); gave up restarting "
                    + "it: it stays stopped, the rest keeps running (a new ./run-local starts it again). Its log is "
                    + StackConsole.path(service.logFile)
                    + StackConsole.logTail(service.logFile, LOG_LINES).stripTrailing());
            return;
        }
        stack.console.say(service.name + " exited with code " + code + "; restarting in " + shown(decision.backOff())
                + " (" + crash + ")");
        CompletableFuture.runAsync(
                () -> restart(exit.run),
                CompletableFuture.delayedExecutor(decision.backOff().toNanos(), TimeUnit.NANOSECONDS, stack.executor));
    }

    /** Neither stopped on purpose nor started again since, and the stack is not closing. */
    private boolean isCurrent(Process run) {
        return !stack.isClosed() && !service.stopRequested() && service.process == run;
    }

    private void restart(Process crashed) {
        try {
            if (!stack.restart(service, crashed)) {
                return; // the stack is closing, or the service was stopped or started on purpose during the back-off
            }
        } catch (RuntimeException e) {
            stack.console.say("could not restart " + service.name + ": " + e.getMessage());
            return;
        }
        int restart = restarts.incrementAndGet();
        Process run = service.process;
        watch(false);
        try {
            double seconds = service.awaitReady(stack.options.readyTimeout, stack::isClosed);
            stack.console.say(String.format(
                    "%s ready again in %.1f s (port %d; restarted %d time%s)",
                    service.name, seconds, service.port, restart, restart == 1 ? "" : "s"));
        } catch (StackStartException e) {
            if (run.isAlive() && service.process == run && !stack.isClosed()) {
                stack.console.say(e.getMessage()); // up but not ready: left running, as a slow start would be
            }
            // otherwise it exited while starting: its watch counts that crash
        }
    }

    /** "1 s", "5 min", "250 ms": as the policy's numbers are written. */
    static String shown(Duration duration) {
        if (duration.toMillis() < 1000 || duration.toMillis() % 1000 != 0) {
            return duration.toMillis() + " ms";
        }
        long seconds = duration.toSeconds();
        return seconds % 60 == 0 ? seconds / 60 + " min" : seconds + " s";
    }
}
