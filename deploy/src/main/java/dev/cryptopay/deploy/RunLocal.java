package dev.cryptopay.deploy;

import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * {@code ./run-local [--reset]} ({@link LocalStack#main}): the stack of the {@code STACK_*} variables, its own log in
 * {@code <data dir>/logs/launcher.log}, until Ctrl-C or SIGTERM (the shutdown hook stops it). Exit code 2 for a usage
 * or settings mistake, 1 when the stack cannot start.
 */
final class RunLocal {

    private static final String USAGE = """
            usage: ./run-local [--reset]
              Starts PostgreSQL (local or embedded), Kafka, the dev chain (anvil; needs Node.js 20 and npm),
              gateway, payment-links-service, subscriptions-service, webhook-service and chain-watcher, and
              prints a sandbox API key, wallet and paying customer. Ctrl-C stops it all.
              --reset   delete .local (secrets, sandbox key and wallet, Kafka, embedded PostgreSQL and dev chain
                        data) and drop the stack's databases on an external PostgreSQL, then start afresh
              Settings: the STACK_* environment variables (data directory, PostgreSQL, ports, dev chain, JVM
              flags, services you run yourself: STACK_SKIP=<service>,...). See deploy/README.md.""";

    private RunLocal() {}

    static void main(String[] args) {
        boolean reset = false;
        for (String arg : args) {
            if (arg.equals("--help") || arg.equals("-h")) {
                System.out.println(USAGE);
                return;
            } else if (arg.equals("--reset")) {
                reset = true;
            } else {
                System.err.println("[stack] unknown argument '" + arg + "'\n" + USAGE);
                System.exit(2);
            }
        }
        StackOptions options;
        try {
            options = StackOptions.fromEnvironment();
        } catch (IllegalArgumentException e) {
            System.err.println("[stack] " + e.getMessage());
            System.exit(2);
            return;
        }
        // Logback reads these when the first logger is made; made here once, before Kafka and PostgreSQL start in
        // parallel.
        System.setProperty("stack.log.dir", new StackFiles(options.dataDir).logDir.toString());
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "local-stack-logback.xml");
        }
        LoggerFactory.getILoggerFactory();
        LocalStack stack = new LocalStack(options);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (!stack.isClosed()) {
                stack.console.stopping();
                long begin = System.nanoTime();
                stack.close();
                stack.console.say(String.format("stopped in %.1f s", (System.nanoTime() - begin) / 1e9));
            }
        }));
        try {
            if (reset) {
                reset(stack);
            }
            stack.startUp();
            Thread.currentThread().join(); // until Ctrl-C or SIGTERM: the shutdown hook stops the stack
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            if (stack.isClosed()) {
                return; // Ctrl-C during start: the shutdown hook stops what was started
            }
            stack.close();
            if (e instanceof StackStartException) {
                System.err.println();
                System.err.println("[stack] " + e.getMessage());
            } else {
                LoggerFactory.getLogger(LocalStack.class).error("local stack failed to start", e);
                System.err.println("[stack] the stack could not start: " + e + " (details in "
                        + StackConsole.path(stack.files.launcherLog) + ")");
            }
            System.exit(1);
        }
    }

    /** {@code --reset}, as {@link #USAGE} says; refused while a stack may run on that data. */
    private static void reset(LocalStack stack) {
        StackFiles files = stack.files;
        Optional<Long> running = files.runningLauncher();
        if (running.isPresent()) {
            throw new StackStartException("--reset refused: a local stack runs on " + StackConsole.path(files.root)
                    + " (launcher pid " + running.get() + "). Stop it first (Ctrl-C in its terminal).");
        }
        int gatewayPort = stack.options.ports.get(StackPort.GATEWAY);
        if (gatewayPort != 0 && !Ports.isFree(gatewayPort)) {
            throw new StackStartException("--reset refused: port " + gatewayPort + " is in use, so a stack may be "
                    + "running on this data. Stop it first (Ctrl-C in its terminal).");
        }
        if (!StackPostgres.mustEmbed(stack.options)) {
            StackPostgres external = StackPostgres.external(stack.options);
            for (StackService service : StackService.values()) {
                external.dropDatabase(stack.options.databaseName(service));
                stack.console.say("dropped database " + stack.options.databaseName(service) + " on " + external.origin);
            }
        }
        files.stopLeftoverServices();
        StackPostgres.stopLeftRunning(files.postgresDir, stack.console);
        StackChain.stopLeftRunning(files, stack.console);
        stack.deleteDataDir();
        stack.console.say("deleted " + StackConsole.path(files.root));
    }
}
