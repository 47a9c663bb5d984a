package dev.cryptopay.deploy;

import dev.cryptopay.deploy.console.DisplayPath;
import dev.cryptopay.deploy.console.StackConsole;
import dev.cryptopay.deploy.datadir.DataDirLock;
import dev.cryptopay.deploy.datadir.StackLayout;
import dev.cryptopay.deploy.infrastructure.StackChain;
import dev.cryptopay.deploy.infrastructure.StackPostgres;
import dev.cryptopay.deploy.ports.LocalPorts;
import java.util.Optional;

/**
 * {@code ./run-local --reset}: deletes the data directory (the dev chain's state and the sandbox wallet with it) and,
 * on an external PostgreSQL, drops the stack's databases, so the next start begins afresh. Refused while a stack may be running on that data.
 */
final class StackReset {

    private StackReset() {}

    static void reset(StackRun run) {
        StackOptions options = run.options();
        StackLayout layout = run.layout();
        StackConsole console = run.console();
        Optional<Long> running = DataDirLock.runningLauncher(layout);
        if (running.isPresent()) {
            throw new StackStartException("--reset refused: a local stack runs on " + DisplayPath.of(layout.root())
                    + " (launcher pid " + running.get() + "). Stop it first (Ctrl-C in its terminal).");
        }
        int gatewayPort = options.port(StackPort.GATEWAY);
        if (gatewayPort != 0 && !LocalPorts.isFree(gatewayPort)) {
            throw new StackStartException("--reset refused: port " + gatewayPort + " is in use, so a stack may be "
                    + "running on this data. Stop it first (Ctrl-C in its terminal).");
        }
        if (!StackPostgres.mustEmbed(options)) {
            StackPostgres external = StackPostgres.external(options);
            for (StackService service : StackService.values()) {
                external.dropDatabase(options.databaseName(service));
                console.databaseDropped(options.databaseName(service), external.origin());
            }
        }
        StackPostgres.stopLeftRunning(layout.postgresDir(), console);
        StackChain.stopLeftRunning(layout, console);
        StackShutdown.deleteDataDir(layout, console);
        console.dataDirDeleted(layout.root());
    }
}
