package dev.cryptopay.deploy;

import dev.cryptopay.deploy.console.StackConsole;
import dev.cryptopay.deploy.datadir.StackLayout;
import dev.cryptopay.deploy.infrastructure.StackPostgres;
import dev.cryptopay.deploy.process.ServiceProcess;
import dev.cryptopay.testsupport.DirectoryTree;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Stops what a run started: the services (SIGTERM, all at once, SIGKILL after 20 s, or 120 s for a service that
 * writes its class-data archive as it exits), then Kafka, the embedded
 * PostgreSQL and the dev chain (SIGTERM: anvil writes its state); drops the databases and deletes the data directory when the options say so. Safe to call twice and
 * halfway through a start; a part that does not stop cleanly is reported and the rest still stopped.
 */
final class StackShutdown {

    private StackShutdown() {}

    static void close(StackRun run) {
        List<ServiceProcess> started = run.beginClosing().orElse(null);
        if (started == null) {
            return;
        }
        StackConsole console = run.console();
        stopServices(run, started);
        if (run.kafka() != null) {
            try {
                run.kafka().close();
            } catch (RuntimeException e) {
                console.problem("Kafka did not stop cleanly: " + e.getMessage());
            }
        }
        if (run.postgres() != null) {
            stopPostgres(run);
        }
        if (run.chain() != null) {
            try {
                run.chain().close();
            } catch (RuntimeException e) {
                console.problem("the dev chain did not stop cleanly: " + e.getMessage());
            }
        }
        run.executor().shutdownNow();
        if (run.lock() != null) {
            try {
                run.lock().release();
            } catch (IOException e) {
                console.problem("could not delete " + run.lock().pidFile() + ": " + e);
            }
        }
        if (run.options().deleteDataDirOnClose()) {
            deleteDataDir(run.layout(), console);
        }
    }

    /** Deletes the data directory with everything in it (also what {@code --reset} does). */
    static void deleteDataDir(StackLayout layout, StackConsole console) {
        try {
            DirectoryTree.delete(layout.root());
        } catch (IOException e) {
            console.problem("could not delete " + layout.root() + ": " + e.getMessage());
        }
    }

    private static void stopServices(StackRun run, List<ServiceProcess> started) {
        List<StackService> recording = started.stream()
                .filter(ServiceProcess::isRecordingArchive)
                .map(ServiceProcess::service)
                .toList();
        if (!recording.isEmpty()) {
            run.console().savingClassDataArchives(recording);
        }
        List<CompletableFuture<Void>> stopping = new ArrayList<>();
        for (ServiceProcess process : started) {
            stopping.add(CompletableFuture.runAsync(process::stop, run.executor()));
        }
        stopping.forEach(f -> {
            try {
                f.join();
            } catch (RuntimeException e) {
                run.console().problem(e.getMessage());
            }
        });
    }

    private static void stopPostgres(StackRun run) {
        StackPostgres postgres = run.postgres();
        if (run.options().dropDatabasesOnClose()) {
            for (StackService service : StackService.values()) {
                try {
                    postgres.dropDatabase(run.options().databaseName(service));
                } catch (RuntimeException e) {
                    run.console().problem(e.getMessage());
                }
            }
        }
        try {
            postgres.close();
        } catch (IOException e) {
            run.console().problem("could not stop the embedded PostgreSQL: " + e.getMessage());
        }
    }
}
