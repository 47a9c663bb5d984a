package dev.cryptopay.deploy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.deploy.infrastructure.StackChain;
import dev.cryptopay.deploy.process.CrashWatch;
import dev.cryptopay.deploy.process.ServiceProcess;
import dev.cryptopay.deploy.sandbox.AdminClient;
import dev.cryptopay.testsupport.chain.DevChain;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;

/**
 * The local stack: PostgreSQL (the local server or an embedded one), a real KRaft Kafka broker in this JVM, the dev
 * chain (anvil, when Node.js and npm are there), and gateway, payment-links-service, subscriptions-service,
 * webhook-service and chain-watcher each as its own {@code java -jar} process, plus a sandbox merchant with a wallet
 * whose credentials are printed and written to {@code <data dir>/stack.env}.
 *
 * <p>{@code java -jar deploy/target/deploy-0.1.0-SNAPSHOT-exec.jar} (what {@code ./run-local} runs) starts it and stops it
 * on Ctrl-C ({@link StackCommandLine}). Tests use {@link #start(StackOptions)} with {@link StackOptions#forTests()}
 * and the returned handle; see deploy/README.md.
 */
public final class LocalStack implements AutoCloseable {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final StackRun run;

    LocalStack(StackRun run) {
        this.run = run;
    }

    /** {@code ./run-local [--reset]}. */
    public static void main(String[] args) {
        StackCommandLine.run(args);
    }

    /**
     * Starts the whole stack and returns once every service is ready and the sandbox merchant exists.
     *
     * @throws StackStartException with a message for people (port taken, database refused, jar missing, service not
     *                             ready in time...); everything started so far is stopped again
     */
    public static LocalStack start(StackOptions options) {
        StackRun run = new StackRun(options.copy());
        LocalStack stack = new LocalStack(run);
        try {
            StackStartup.start(run);
            return stack;
        } catch (RuntimeException | Error e) {
            stack.close();
            throw e;
        }
    }

    // --------------------------------------------------------------------------------------------- info

    /** The options this stack runs with (its own copy). */
    StackOptions options() {
        return run.options();
    }

    /** {@code http://127.0.0.1:<gateway port>}: the gateway's root, where the checkout and {@code /docs} are. */
    public String gatewayUrl() {
        return run.gatewayUrl();
    }

    /** {@code http://127.0.0.1:<gateway port>/api/v1}: the merchant base URL. */
    public String baseUrl() {
        return run.baseUrl();
    }

    /** {@code http://127.0.0.1:<admin port>}: the gateway's admin API (Bearer {@link #adminToken()}). */
    public String adminUrl() {
        return run.adminUrl();
    }

    public String adminToken() {
        return run.secrets().adminToken();
    }

    /** The secret the gateway signs {@code X-Internal-Auth} with (to call a service directly in a test). */
    public String internalAuthSecret() {
        return run.secrets().internalAuthSecret();
    }

    /** The chain watcher's own internal secret (to report to payment-links-service directly in a test). */
    public String chainWatcherSecret() {
        return run.secrets().chainWatcherSecret();
    }

    /** The sandbox merchant's test-mode credentials. */
    public SandboxCredentials credentials() {
        return run.credentials();
    }

    /** A client signing as the sandbox merchant. */
    public SignedClient client() {
        return new SignedClient(baseUrl(), credentials());
    }

    /**
     * A new merchant with a gateway-generated Ed25519 key and a publishable key of the given mode, through the admin
     * API.
     */
    public SandboxCredentials newMerchant(String name, Mode mode) {
        AdminClient admin = new AdminClient(adminUrl(), adminToken());
        SandboxCredentials created = admin.createKey(
                admin.createMerchant(name, "merchant-" + Long.toHexString(RANDOM.nextLong()) + "@example.com"), mode);
        return created.withPublishableKey(admin.createPublishableKey(created.merchantId(), mode));
    }

    /** {@code http://127.0.0.1:<port>} of a service ({@code gateway}, {@code payment-links-service}, ...). */
    public String serviceUrl(String service) {
        return "http://127.0.0.1:" + servicePort(service);
    }

    public int servicePort(String service) {
        return run.ports().port(StackPort.of(StackService.byName(service)));
    }

    public String kafkaBootstrapServers() {
        return run.kafka().bootstrapServers();
    }

    /** JDBC URL of a service's database (user {@link #databaseUser()}, password {@link #databasePassword()}). */
    public String jdbcUrl(String service) {
        return run.postgres().jdbcUrl(run.options().databaseName(StackService.byName(service)));
    }

    public String databaseUser() {
        return run.postgres().user();
    }

    public String databasePassword() {
        return run.postgres().password();
    }

    public Path dataDir() {
        return run.layout().root();
    }

    public Path logFile(String service) {
        return run.layout().serviceLog(StackService.byName(service));
    }

    /** The dev chain's JSON-RPC URL; empty when the stack runs without it. */
    public Optional<String> devChainUrl() {
        return Optional.ofNullable(run.chain()).map(StackChain::rpcUrl);
    }

    /** The dev chain itself (balances, blocks), when the stack runs one. */
    public Optional<DevChain> devChain() {
        return Optional.ofNullable(run.chain()).map(StackChain::devChain);
    }

    /**
     * {@code <data dir>/stack.env}: BASE_URL, API_KEY, PRIVATE_KEY, ADMIN_URL, ADMIN_TOKEN, PUBLISHABLE_KEY, wallet,
     * dev chain.
     */
    public Path stackEnvFile() {
        return run.layout().stackEnvFile();
    }

    /**
     * The environment the launcher gives a service (port, database, Kafka, secrets, sandbox settings): what a test
     * or a developer needs to run that service by hand next to the stack.
     */
    public Map<String, String> serviceEnvironment(String service) {
        return Map.copyOf(ServiceEnvironment.of(
                StackService.byName(service),
                run.options(),
                run.ports(),
                run.secrets(),
                run.postgres().server()));
    }

    // ------------------------------------------------------------------------------------------ control

    /** Whether the service's process is alive. */
    public boolean isRunning(String service) {
        return run.process(service).isRunning();
    }

    /** Stops a service gracefully (SIGTERM; SIGKILL after 20 s). Its port stays reserved for {@link #startService}. */
    public void stopService(String service) {
        run.process(service).stop();
    }

    /** Kills a service at once (SIGKILL, {@code destroyForcibly}), like a crash. */
    public void killService(String service) {
        run.process(service).kill();
    }

    /** Starts a stopped or killed service again on the same port and waits until it is ready. */
    public void startService(String service) {
        ServiceProcess process = run.process(service);
        run.launch(process, false);
        CrashWatch.watch(process, run::isClosed, run.console());
    }

    /** Stops the Kafka broker cleanly (data kept); clients see connection failures until {@link #startKafka()}. */
    public void stopKafka() {
        run.kafka().stop();
    }

    /** Brings Kafka back at the same address with its data. */
    public void startKafka() {
        run.kafka().restart();
    }

    /**
     * Stops everything: the services (SIGTERM, all at once, SIGKILL after 20 s), then Kafka, the embedded
     * PostgreSQL and the dev chain. Drops the databases / deletes the data directory when the options say so. Safe to call twice.
     */
    @Override
    public void close() {
        StackShutdown.close(run);
    }
}
