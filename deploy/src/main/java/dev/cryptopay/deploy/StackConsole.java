package dev.cryptopay.deploy;

import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.deploy.sandbox.SandboxWallet;
import dev.cryptopay.testsupport.chain.DevChain;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where the local stack prints its progress (the terminal, or what a test passes as {@code StackOptions.out}), and how
 * it shows paths and logs. People and tests read these lines: the summary's keys are parsed and {@code [stack]
 * <service> ready in} is matched.
 */
final class StackConsole {

    private final PrintStream out;

    StackConsole(PrintStream out) {
        this.out = out;
    }

    /** A path as the user would type it: relative to the working directory when under it, otherwise absolute. */
    static String path(Path path) {
        if (path == null) {
            return "?";
        }
        Path cwd = Path.of("").toAbsolutePath();
        Path absolute = path.toAbsolutePath().normalize();
        return absolute.startsWith(cwd) && !absolute.equals(cwd)
                ? cwd.relativize(absolute).toString()
                : absolute.toString();
    }

    /**
     * The last lines of a log, to quote in a failure message so the reader need not open the file: "; its last N
     * lines:\n    ...\n" (ready to go after a sentence naming the log), or ". " when it is empty or unreadable.
     */
    static String logTail(Path logFile, int lines) {
        List<String> all;
        try {
            all = List.of(new String(Files.readAllBytes(logFile), StandardCharsets.UTF_8).split("\\R"));
        } catch (IOException e) {
            return ". ";
        }
        List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
        if (last.isEmpty() || (last.size() == 1 && last.get(0).isBlank())) {
            return ". ";
        }
        StringBuilder text = new StringBuilder("; its last " + last.size() + " lines:\n");
        last.forEach(line -> text.append("    ").append(line).append('\n'));
        return text.toString();
    }

    void say(String line) {
        out.println("[stack] " + line);
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
        out.println("  Dashboard    " + stack.gatewayUrl() + "/dashboard   (sign in with the keys below, or sign up)");
        out.println("  API key      " + credentials.apiKey());
        out.println("  Publishable  " + credentials.publishableKey()
                + "   merchant_key for customer-side code (not a secret)");
        out.println("  Private key  " + credentials.privateKey());
        out.println("               (PEM: " + path(files.sandboxKeyPem) + ")");
        out.println(
                "  Wallet       " + wallet.firstAddress() + "   receives the sandbox merchant's payments (the first "
                        + "link's deposit address; each link has its own)");
        out.println(
                "               treasury " + wallet.treasuryAddress() + " receives the example plan's subscriptions");
        out.println("               (mnemonic in " + path(files.sandboxWalletFile)
                + ": a development-only secret, never for real funds)");
        out.println("  Admin API    " + stack.adminUrl() + "   Bearer " + stack.adminToken());
        out.println("  Kafka        " + stack.kafka.bootstrapServers() + "   PostgreSQL " + stack.postgres.server.host()
                + ":" + stack.postgres.server.port() + (stack.postgres.isEmbedded() ? " (embedded)" : ""));
        out.println("  E-mails      ./dev-mail   (SMTP 127.0.0.1:" + stack.ports.port(StackPort.SMTP)
                + ", GreenMail; every message the suite sends, kept in " + path(files.mailDir) + ")");
        int confirmations = ServiceEnvironment.DEV_CHAIN_CONFIRMATIONS;
        if (stack.chain != null) {
            out.println("  Dev chain    " + stack.chain.devChain.rpcUrl() + "   chain id " + DevChain.CHAIN_ID
                    + "   (anvil; chain-watcher confirms a payment after " + confirmations + " block"
                    + (confirmations == 1 ? ")" : "s)"));
            out.println("  Customer     " + CustomerAccount.ADDRESS + "   holds ETH and " + CustomerAccount.TOKEN_AMOUNT
                    + " of each test token");
            out.println("               key " + CustomerAccount.PRIVATE_KEY);
            out.println("               (anvil's dev account 1: a PUBLIC test key, never use it on a real network)");
        } else {
            out.println("  Dev chain    not running (see above)");
        }
        out.println("  Logs         " + path(files.logDir) + "/<service>.log");
        out.println();
        out.println("  The API key says who you are (X-API-Key); the private key signs every request");
        out.println("  (X-API-Signature) and never leaves your machine. The publishable key is the merchant_key of");
        out.println("  POST /public/subscriptions/link/payment, for customer-side code. All of it is in "
                + path(files.stackEnvFile) + ".");
        out.println("  Try:  ./signed-request GET /account");
        out.println("        ./signed-request POST /payment_links '{\"payment_name\":\"Coffee\",\"amount\":10.5,"
                + "\"currency\":\"USDC\"}'");
        if (stack.chain != null) {
            out.println("        ./dev-pay \"<its payment_uri>\"   (pays it as the customer)");
        }
        if (stack.examplePlan != null) {
            out.println("        ./dev-subscribe \"" + stack.examplePlan.invitationUrl()
                    + "\"   (subscribes the customer to the example plan)");
        }
        out.println();
        say("running; Ctrl-C stops everything");
    }
}
