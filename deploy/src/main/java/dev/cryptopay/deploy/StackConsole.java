package dev.cryptopay.deploy;

import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.deploy.sandbox.SandboxWallet;
import dev.cryptopay.testsupport.chain.DevChain;
import java.io.PrintStream;

/**
 * Where the local stack prints: progress on its output stream (the terminal, or what a test passes as {@code
 * StackOptions.out}), problems while stopping on standard error. People and tests read these lines: the summary's
 * keys are parsed and {@code [stack] <service> ready in} is matched.
 */
final class StackConsole {

    private final PrintStream out;

    StackConsole(PrintStream out) {
        this.out = out;
    }

    void say(String line) {
        out.println("[stack] " + line);
    }

    void serviceReady(StackService service, double seconds, int port) {
        out.printf("[stack] %s ready in %.1f s (port %d)%n", service, seconds, port);
    }

    /** Something that went wrong while stopping: worth a line on standard error, not worth stopping for. */
    void problem(String message) {
        System.err.println("[stack] " + message);
    }

    /** Ctrl-C: the blank line ends the terminal's {@code ^C}. */
    void stopping() {
        out.println();
        say("stopping…");
    }

    void summary(double seconds, LocalStack stack, SandboxWallet wallet) {
        StackFiles files = stack.files;
        SandboxCredentials credentials = stack.credentials();
        out.printf("[stack] all services ready in %.1f s%n", seconds);
        out.println();
        out.println("  Base URL     " + stack.baseUrl());
        out.println("  API docs     " + stack.gatewayUrl() + "/docs   (reference page; "
                + "the OpenAPI document is /openapi.json)");
        out.println("  API key      " + credentials.apiKey());
        out.println("  Publishable  " + credentials.publishableKey()
                + "   merchant_key for customer-side code (not a secret)");
        out.println("  Private key  " + credentials.privateKey());
        out.println("               (PEM: " + DisplayPath.of(credentials.pemFile()) + ")");
        out.println("  Wallet       " + wallet.firstAddress() + "   receives the sandbox merchant's payments");
        out.println("               (mnemonic in " + DisplayPath.of(files.sandboxWalletFile)
                + ": a development-only secret, never for real funds)");
        out.println("  Admin API    " + stack.adminUrl() + "   Bearer " + stack.adminToken());
        out.println("  Kafka        " + stack.kafkaBootstrapServers() + "   PostgreSQL " + stack.postgres.host() + ":"
                + stack.postgres.port() + (stack.postgres.isEmbedded() ? " (embedded)" : ""));
        int confirmations = ServiceEnvironment.DEV_CHAIN_CONFIRMATIONS;
        if (stack.chain != null) {
            out.println("  Dev chain    " + stack.chain.rpcUrl() + "   chain id " + DevChain.CHAIN_ID
                    + "   (anvil; chain-watcher confirms a payment after " + confirmations + " block"
                    + (confirmations == 1 ? ")" : "s)"));
            out.println("  Customer     " + CustomerAccount.ADDRESS + "   holds ETH and " + CustomerAccount.TOKEN_AMOUNT
                    + " of each test token");
            out.println("               key " + CustomerAccount.PRIVATE_KEY);
            out.println("               (anvil's dev account 1: a PUBLIC test key, never use it on a real network)");
        } else {
            out.println("  Dev chain    not running (see above)");
        }
        out.println("  Logs         " + DisplayPath.of(files.logDir) + "/<service>.log");
        out.println();
        out.println("  The API key says who you are (X-API-Key); the private key signs every request");
        out.println("  (X-API-Signature) and never leaves your machine. The publishable key is the merchant_key of");
        out.println("  POST /public/subscriptions/link/payment, for customer-side code. All of it is in "
                + DisplayPath.of(files.stackEnvFile) + ".");
        out.println("  Try:  ./signed-request GET /account");
        out.println("        ./signed-request POST /payment_links '{\"payment_name\":\"Coffee\",\"amount\":10.5,"
                + "\"currency\":\"USDC\"}'");
        if (stack.chain != null) {
            out.println("        ./dev-pay \"<its payment_uri>\"   (pays it as the customer)");
        }
        out.println();
        say("running; Ctrl-C stops everything");
    }
}
