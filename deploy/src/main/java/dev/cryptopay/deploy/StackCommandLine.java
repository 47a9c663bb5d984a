package dev.cryptopay.deploy;

import dev.cryptopay.deploy.console.DisplayPath;
import dev.cryptopay.deploy.datadir.StackLayout;
import java.util.concurrent.CountDownLatch;
import org.slf4j.LoggerFactory;

/**
 * {@code ./run-local [--reset]}, i.e. {@link LocalStack#main}: reads the arguments and the {@code STACK_*} variables,
 * points the launcher's own log at {@code <data dir>/logs/launcher.log}, starts the stack and keeps it running until
 * Ctrl-C. Exit code 2 for a usage or settings mistake, 1 when the stack cannot start.
 */
final class StackCommandLine {

    private StackCommandLine() {}

    static void run(String[] args) {
        boolean reset = false;
        for (String arg : args) {
            switch (arg) {
                case "--help", "-h" -> {
                    System.out.println(usage());
                    return;
                }
                case "--reset" -> reset = true;
                default -> {
                    System.err.println("[stack] unknown argument '" + arg + "'\n" + usage());
                    System.exit(2);
                }
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
        // Logback reads this when the first logger is created: the launcher's own log (Kafka, embedded PostgreSQL).
        System.setProperty(
                "stack.log.dir", new StackLayout(options.dataDir()).logDir().toString());
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "local-stack-logback.xml");
        }
        LoggerFactory.getILoggerFactory(); // initialise logging once, before Kafka and PostgreSQL start in parallel
        StackRun run = new StackRun(options.copy());
        LocalStack stack = new LocalStack(run);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            if (!run.isClosed()) {
                                run.console().stopping();
                                long begin = System.nanoTime();
                                stack.close();
                                run.console().stopped((System.nanoTime() - begin) / 1e9);
                            }
                            stopped.countDown();
                        },
                        "local-stack-shutdown"));
        try {
            if (reset) {
                StackReset.reset(run);
            }
            StackStartup.start(run);
        } catch (StackStartException e) {
            if (run.isClosed()) {
                return; // Ctrl-C during start: the shutdown hook stops what was started
            }
            stack.close();
            System.err.println();
            System.err.println("[stack] " + e.getMessage());
            System.exit(1);
        } catch (RuntimeException | Error e) {
            LoggerFactory.getLogger(LocalStack.class).error("local stack failed to start", e);
            stack.close();
            System.err.println("[stack] the stack could not start: " + e + " (details in "
                    + DisplayPath.of(run.layout().launcherLog()) + ")");
            System.exit(1);
        }
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String usage() {
        return """
                usage: ./run-local [--reset]
                  Starts PostgreSQL (local or embedded), Kafka, the dev chain (anvil; needs Node.js 20 and npm),
                  gateway, payment-links-service, subscriptions-service, webhook-service and chain-watcher, and
                  prints a sandbox API key, wallet and paying customer. Ctrl-C stops it all.
                  --reset   delete .local (secrets, sandbox key and wallet, Kafka, embedded PostgreSQL and dev chain
                            data) and drop the stack's databases on an external PostgreSQL, then start afresh
                  Settings (environment): STACK_DATA_DIR, STACK_POSTGRES=auto|local|embedded, STACK_PG_HOST/PORT/
                  USER/PASSWORD, STACK_EMBEDDED_PG_PORT, STACK_KAFKA_PORT, STACK_GATEWAY_PORT, STACK_ADMIN_PORT,
                  STACK_PAYMENT_LINKS_PORT, STACK_SUBSCRIPTIONS_PORT, STACK_WEBHOOKS_PORT, STACK_CHAIN_WATCHER_PORT,
                  STACK_CHAIN=auto|off, STACK_CHAIN_PORT, STACK_JVM_OPTS, STACK_FAST_WEBHOOK_RETRIES=true|false,
                  STACK_READY_TIMEOUT (s), STACK_SKIP=<service>,... (services you run yourself). See deploy/README.md.""";
    }
}
