package dev.cryptopay.deploy.console;

import dev.cryptopay.deploy.StackService;
import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.testsupport.chain.DevChain;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Every line the local stack prints: progress on its output stream (the terminal, or what a test passes as
 * {@code StackOptions.out}), problems while stopping on standard error. Kept in one place because people and tests
 * read these lines (the summary's keys are parsed, {@code [stack] <service> ready in} is matched).
 */
public final class StackConsole {

    private final PrintStream out;

    public StackConsole(PrintStream out) {
        this.out = out;
    }

    // ------------------------------------------------------------------------------------------ infrastructure

    public void externalPostgres(String host, int port, String user) {
        out.println("[stack] PostgreSQL: the server at " + host + ":" + port + " (user " + user + ")");
    }

    public void embeddedPostgresReady(int port, double seconds, boolean firstStart, Path dataDir) {
        out.printf(
                "[stack] PostgreSQL: embedded, ready at 127.0.0.1:%d in %.1f s%s (data in %s)%n",
                port, seconds, firstStart ? ", first start" : "", DisplayPath.of(dataDir));
    }

    public void stoppingLeftoverPostgres(long pid) {
        out.println("[stack] stopping the embedded PostgreSQL an earlier launcher left running (pid " + pid + ")");
    }

    public void kafkaReady(String bootstrapServers, double seconds, Path dataDir) {
        out.printf(
                "[stack] Kafka ready at %s in %.1f s (data in %s)%n",
                bootstrapServers, seconds, DisplayPath.of(dataDir));
    }

    public void devChainReady(String rpcUrl, double seconds, boolean newChain, Path stateDir) {
        out.printf(
                "[stack] dev chain (anvil) ready at %s in %.1f s, %s (state in %s)%n",
                rpcUrl,
                seconds,
                newChain
                        ? "new chain: test tokens deployed, customer account funded"
                        : "the chain of the last run continued",
                DisplayPath.of(stateDir));
    }

    public void stoppingLeftoverChain(long pid) {
        out.println("[stack] stopping the dev chain (anvil, pid " + pid + ") an earlier launcher left running");
    }

    /** The one line said when the dev chain cannot run here. */
    public void devChainSkipped(String missing) {
        out.println("[stack] no dev chain and no chain-watcher: they need " + missing + ". Install Node.js 20 (it "
                + "comes with npm) and start again; everything else runs without them.");
    }

    public void devChainOff() {
        out.println("[stack] dev chain and chain-watcher not started (STACK_CHAIN=off)");
    }

    public void awaitingOrphanedService(int port, long pid) {
        out.println("[stack] port " + port + " is held by a service of a launcher that is gone (pid " + pid
                + "); waiting for it to exit");
    }

    // ------------------------------------------------------------------------------------------------ services

    public void serviceReady(StackService service, double seconds, int port) {
        out.printf("[stack] %s ready in %.1f s (port %d)%n", service, seconds, port);
    }

    public void serviceIsYours(StackService service, int port, Path envFile) {
        String env = DisplayPath.of(envFile);
        out.println("[stack] " + service + " is yours to run (STACK_SKIP) on port " + port + ", with the settings in "
                + env + ": set -a; . " + env + "; set +a; ./mvnw -pl " + service + " spring-boot:run");
    }

    public void awaitingYourGateway(long timeoutSeconds, int port) {
        out.println("[stack] waiting up to " + timeoutSeconds + " s for the gateway you run yourself on port " + port);
    }

    public void serviceStoppedFromOutside(StackService service, int exitCode) {
        out.println("[stack] " + service + " was stopped by a signal from outside the launcher (exit code " + exitCode
                + "); the rest keeps running");
    }

    public void serviceCrashed(StackService service, int exitCode, Path logFile) {
        out.println("[stack] " + service + " exited unexpectedly with code " + exitCode + "; its log is "
                + DisplayPath.of(logFile) + LogTail.of(logFile, 20).stripTrailing());
    }

    // ------------------------------------------------------------------------------------------------ sandbox

    public void sandboxMerchantReused(String merchantId) {
        out.println("[stack] sandbox merchant " + merchantId + " reused");
    }

    public void sandboxKeyReplaced(String merchantId) {
        out.println("[stack] the saved sandbox key is no longer accepted; creating a new test key for merchant "
                + merchantId);
    }

    public void sandboxMerchantGone() {
        out.println("[stack] the saved sandbox merchant is not in the database (was it reset?); creating a new one");
    }

    public void sandboxMerchantCreated(String merchantId) {
        out.println("[stack] sandbox merchant " + merchantId + " created");
    }

    public void sandboxWalletRegistered(String firstAddress, boolean firstTime, Path walletFile) {
        out.println("[stack] sandbox wallet " + firstAddress + " " + (firstTime ? "registered" : "registered again")
                + " as the receiving key (mnemonic in " + DisplayPath.of(walletFile) + ")");
    }

    public void sandboxWalletNotRegistered(String reason, String body) {
        out.println("[stack] the sandbox wallet is not registered as the receiving key (" + reason + "); links get "
                + "no deposit address until it is: ./signed-request PUT /payment_links/receiving_key '" + body + "'");
    }

    // ---------------------------------------------------------------------------------------------- summary

    public void summary(double seconds, StackSummary stack) {
        out.printf("[stack] all services ready in %.1f s%n", seconds);
        out.println();
        out.println("  Base URL     " + stack.baseUrl());
        out.println("  API docs     " + stack.gatewayUrl() + "/docs   (reference page; "
                + "the OpenAPI document is /openapi.json)");
        out.println("  API key      " + stack.credentials().apiKey());
        out.println("  Publishable  " + stack.credentials().publishableKey()
                + "   merchant_key for customer-side code (not a secret)");
        out.println("  Private key  " + stack.credentials().privateKey());
        out.println("               (PEM: " + DisplayPath.of(stack.credentials().pemFile()) + ")");
        out.println("  Wallet       " + stack.wallet().firstAddress() + "   receives the sandbox merchant's payments");
        out.println("               (mnemonic in " + DisplayPath.of(stack.walletFile())
                + ": a development-only secret, never for real funds)");
        out.println("  Admin API    " + stack.adminUrl() + "   Bearer " + stack.adminToken());
        out.println("  Kafka        " + stack.kafkaBootstrapServers() + "   PostgreSQL " + stack.postgresHost() + ":"
                + stack.postgresPort() + (stack.postgresEmbedded() ? " (embedded)" : ""));
        if (stack.devChainUrl() != null) {
            out.println("  Dev chain    " + stack.devChainUrl() + "   chain id " + DevChain.CHAIN_ID
                    + "   (anvil; chain-watcher confirms a payment after " + stack.confirmations() + " block"
                    + (stack.confirmations() == 1 ? ")" : "s)"));
            out.println("  Customer     " + CustomerAccount.ADDRESS + "   holds ETH and " + CustomerAccount.TOKEN_AMOUNT
                    + " of each test token");
            out.println("               key " + CustomerAccount.PRIVATE_KEY);
            out.println("               (anvil's dev account 1: a PUBLIC test key, never use it on a real network)");
        } else {
            out.println("  Dev chain    not running (see above)");
        }
        out.println("  Logs         " + DisplayPath.of(stack.logDir()) + "/<service>.log");
        out.println();
        out.println("  The API key says who you are (X-API-Key); the private key signs every request");
        out.println("  (X-API-Signature) and never leaves your machine. The publishable key is the merchant_key of");
        out.println("  POST /public/subscriptions/link/payment, for customer-side code. All of it is in "
                + DisplayPath.of(stack.stackEnvFile()) + ".");
        out.println("  Try:  ./signed-request GET /account");
        out.println("        ./signed-request POST /payment_links '{\"payment_name\":\"Coffee\",\"amount\":10.5,"
                + "\"currency\":\"USDC\"}'");
        if (stack.devChainUrl() != null) {
            out.println("        ./dev-pay \"<its payment_uri>\"   (pays it as the customer)");
        }
        out.println();
        out.println("[stack] running; Ctrl-C stops everything");
    }

    // ----------------------------------------------------------------------------------------- reset and stop

    public void databaseDropped(String database, String origin) {
        out.println("[stack] dropped database " + database + " on " + origin);
    }

    public void dataDirDeleted(Path dataDir) {
        out.println("[stack] deleted " + DisplayPath.of(dataDir));
    }

    /** Ctrl-C: the blank line ends the terminal's {@code ^C}. */
    public void stopping() {
        out.println();
        out.println("[stack] stopping…");
    }

    public void savingClassDataArchives(List<StackService> services) {
        out.println(
                "[stack] " + services.stream().map(StackService::serviceName).collect(Collectors.joining(", "))
                        + " write their class-data archives as they stop (once per build: later starts are faster)…");
    }

    public void stopped(double seconds) {
        out.printf("[stack] stopped in %.1f s%n", seconds);
    }

    /** Something that went wrong while stopping: worth a line on standard error, not worth stopping for. */
    public void problem(String message) {
        System.err.println("[stack] " + message);
    }
}
