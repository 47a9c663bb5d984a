package dev.cryptopay.deploy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.testsupport.DirectoryTree;
import dev.cryptopay.testsupport.KraftBroker;
import dev.cryptopay.testsupport.chain.DevChain;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The local stack: PostgreSQL (the local server or an embedded one), a KRaft Kafka broker in this JVM, the dev chain
 * (anvil, when Node.js and npm are there), and gateway, payment-links-service, subscriptions-service, webhook-service
 * and chain-watcher each as its own {@code java -jar} process, plus a sandbox merchant with a wallet whose
 * credentials are printed and written to {@code <data dir>/stack.env}.
 *
 * <p>{@link #main} is {@code ./run-local}; tests use {@link #start(StackOptions)} with {@link StackOptions#forTests()}
 * and the returned handle. Start-up ({@link StackStartup}) fills the fields in step by step and {@link #close()}
 * stops whatever is in them, also halfway through a start from the Ctrl-C hook. The monitor makes sure no service
 * starts once closing has begun.
 */
public final class LocalStack implements AutoCloseable {

    private static final SecureRandom RANDOM = new SecureRandom();

    final StackOptions options;
    final StackFiles files;
    final StackConsole console;
    final ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "local-stack");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<StackService, ServiceProcess> services = new EnumMap<>(StackService.class);
    private volatile boolean closed;
    volatile boolean claimed;
    volatile Ports ports;
    volatile StackFiles.Secrets secrets;
    volatile StackPostgres postgres;
    volatile KraftBroker kafka;
    volatile SandboxCredentials credentials;
    volatile boolean runsDevChain;
    volatile StackChain chain;

    LocalStack(StackOptions options) {
        this.options = options;
        this.files = new StackFiles(options.dataDir);
        this.console = new StackConsole(options.out);
    }

    /** {@code ./run-local}: see {@link RunLocal}. */
    public static void main(String[] args) {
        RunLocal.main(args);
    }

    /**
     * Starts the whole stack and returns once every service is ready and the sandbox merchant exists.
     *
     * @throws StackStartException with a message for people; everything started so far is stopped again
     */
    public static LocalStack start(StackOptions options) {
        LocalStack stack = new LocalStack(options.copy());
        try {
            StackStartup.start(stack);
            return stack;
        } catch (RuntimeException | Error e) {
            stack.close();
            throw e;
        }
    }

    /** {@code http://127.0.0.1:<gateway port>}: the gateway's root, where the checkout and {@code /docs} are. */
    public String gatewayUrl() {
        return ports.url(StackPort.GATEWAY);
    }

    /** {@code http://127.0.0.1:<gateway port>/api/v1}: the merchant base URL. */
    public String baseUrl() {
        return gatewayUrl() + "/api/v1";
    }

    public String adminUrl() {
        return ports.url(StackPort.ADMIN);
    }

    public String adminToken() {
        return secrets.adminToken();
    }

    /** The secret the gateway signs {@code X-Internal-Auth} with (to call a service directly in a test). */
    public String internalAuthSecret() {
        return secrets.internalAuthSecret();
    }

    /** The chain watcher's own internal secret (to report to payment-links-service directly in a test). */
    public String chainWatcherSecret() {
        return secrets.chainWatcherSecret();
    }

    public SandboxCredentials credentials() {
        return credentials;
    }

    public SignedClient client() {
        return new SignedClient(baseUrl(), credentials());
    }

    /** A new merchant with a gateway-generated Ed25519 key and a publishable key of the mode. */
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
        return ports.port(StackPort.of(StackService.byName(service)));
    }

    public String kafkaBootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** JDBC URL of a service's database (user {@link #databaseUser()}, password {@link #databasePassword()}). */
    public String jdbcUrl(String service) {
        return postgres.server().jdbcUrl(options.databaseName(StackService.byName(service)));
    }

    public String databaseUser() {
        return postgres.server().user();
    }

    public String databasePassword() {
        return postgres.server().password();
    }

    public Path dataDir() {
        return files.root();
    }

    public Optional<String> devChainUrl() {
        return Optional.ofNullable(chain).map(StackChain::rpcUrl);
    }

    public Optional<DevChain> devChain() {
        return Optional.ofNullable(chain).map(StackChain::devChain);
    }

    public Path stackEnvFile() {
        return files.stackEnvFile;
    }

    public boolean isRunning(String service) {
        return process(service).isRunning();
    }

    /** Kills a service at once (SIGKILL), like a crash. */
    public void killService(String service) {
        process(service).kill();
    }

    /** Starts a stopped or killed service again on the same port and waits until it is ready. */
    public void startService(String service) {
        ServiceProcess process = process(service);
        launch(process, false);
        process.watch(this::isClosed, console);
    }

    /** Stops the Kafka broker cleanly (data kept); clients see connection failures until {@link #startKafka()}. */
    public void stopKafka() {
        kafka.stop();
    }

    /** Brings Kafka back at the same address with its data. */
    public void startKafka() {
        kafka.restart();
    }

    synchronized List<CompletableFuture<Void>> launchAll(List<ServiceProcess> processes) {
        abortIfClosed();
        processes.forEach(process -> services.put(process.service(), process));
        return processes.stream()
                .map(process -> CompletableFuture.runAsync(() -> launch(process, true), executor))
                .toList();
    }

    void launch(ServiceProcess process, boolean freshLog) {
        synchronized (this) {
            abortIfClosed();
            process.start(freshLog);
            // services.pid names every running service, so a start after this launcher is killed stops them.
            files.recordServices(services.values().stream()
                    .map(ServiceProcess::process)
                    .filter(p -> p != null)
                    .toList());
        }
        double seconds = process.awaitReady(options.readyTimeout, this::isClosed);
        console.serviceReady(process.service(), seconds, process.port());
    }

    synchronized List<ServiceProcess> processes() {
        return List.copyOf(services.values());
    }

    private synchronized ServiceProcess process(String service) {
        StackService which = StackService.byName(service);
        ServiceProcess process = services.get(which);
        if (process == null) {
            throw new IllegalStateException("the stack has not started " + service
                    + (options.isSkipped(which) ? " (skipped: you run it yourself)" : ""));
        }
        return process;
    }

    boolean isClosed() {
        return closed;
    }

    private void abortIfClosed() {
        if (closed) {
            throw new StackStartException("start abandoned: the stack is stopping");
        }
    }

    /**
     * Stops everything: the services (SIGTERM, all at once, SIGKILL after 20 s, or 120 s for one that writes its
     * class-data archive as it exits), then Kafka, the embedded PostgreSQL and the dev chain (SIGTERM: anvil writes
     * its state). Drops the databases and deletes the data directory when the options say so. Safe to call twice and
     * halfway through a start; a part that does not stop cleanly is reported and the rest still stopped.
     */
    @Override
    public void close() {
        List<ServiceProcess> started;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            started = new ArrayList<>(services.values());
        }
        List<String> recording = started.stream()
                .filter(ServiceProcess::isRecordingArchive)
                .map(p -> p.service().serviceName())
                .toList();
        if (!recording.isEmpty()) {
            console.say(String.join(", ", recording) + " write their class-data archives as they stop (once per "
                    + "build: later starts are faster)…");
        }
        started.stream()
                .map(process -> CompletableFuture.runAsync(process::stop, executor))
                .toList()
                .forEach(stopping -> quietly("", stopping::join));
        if (kafka != null) {
            quietly("Kafka did not stop cleanly: ", kafka::close);
        }
        if (postgres != null) {
            if (options.dropDatabasesOnClose) {
                for (StackService service : StackService.values()) {
                    quietly("", () -> postgres.dropDatabase(options.databaseName(service)));
                }
            }
            quietly("could not stop the embedded PostgreSQL: ", () -> {
                try {
                    postgres.close();
                } catch (IOException e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
            });
        }
        if (chain != null) {
            quietly("the dev chain did not stop cleanly: ", chain::close);
        }
        executor.shutdownNow();
        if (claimed) {
            try {
                files.release();
            } catch (IOException e) {
                console.problem("could not delete " + files.launcherPidFile + ": " + e);
            }
        }
        if (options.deleteDataDirOnClose) {
            deleteDataDir();
        }
    }

    private void quietly(String problem, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            console.problem(problem + e.getMessage());
        }
    }

    void deleteDataDir() {
        try {
            DirectoryTree.delete(files.root());
        } catch (IOException e) {
            console.problem("could not delete " + files.root() + ": " + e.getMessage());
        }
    }
}
