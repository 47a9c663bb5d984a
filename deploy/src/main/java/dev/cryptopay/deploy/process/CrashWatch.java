package dev.cryptopay.deploy.process;

import dev.cryptopay.deploy.console.StackConsole;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Reports a service that exits while the stack runs; the rest keeps running. */
public final class CrashWatch {

    private CrashWatch() {}

    /**
     * Watches the process the service runs now, until it exits.
     *
     * @param stackClosing true once the stack stops: exits from then on are expected
     */
    public static void watch(ServiceProcess process, BooleanSupplier stackClosing, StackConsole console) {
        Process running = process.process();
        if (running == null) {
            return;
        }
        // Ctrl-C in a terminal signals the services too, so they may exit a moment before the launcher's shutdown
        // hook marks the stack closed: look again a second later before calling an exit unexpected.
        running.onExit()
                .thenAcceptAsync(
                        exited -> {
                            if (stackClosing.getAsBoolean()
                                    || process.stopRequested()
                                    || process.process() != running) {
                                return;
                            }
                            int code = exited.exitValue();
                            if (code == 130 || code == 143) {
                                console.serviceStoppedFromOutside(process.service(), code);
                            } else {
                                console.serviceCrashed(process.service(), code, process.logFile());
                            }
                        },
                        CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS));
    }
}
