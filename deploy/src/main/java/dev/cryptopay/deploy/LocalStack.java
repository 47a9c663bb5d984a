package dev.cryptopay.deploy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.deploy.sandbox.SandboxWallet;
import dev.cryptopay.testsupport.DirectoryTree;
import dev.cryptopay.testsupport.KraftBroker;
import dev.cryptopay.testsupport.chain.DevChain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * The local stack: PostgreSQL (the local server or an embedded one), a KRaft Kafka broker and an SMTP server
 * (GreenMail) in this JVM, the dev chain (anvil, when Node.js and npm are there), and gateway, payment-links-service,
 * subscriptions-service, webhook-service, notification-service and chain-watcher each as its own {@code java -jar}
 * process, plus a sandbox merchant with a wallet whose
 * credentials are printed and written to {@code <data dir>/stack.env}.
 *
 * <p>{@link #main} is {@code ./run-local}; tests use {@link #start(StackOptions)} with {@link StackOptions#forTests()}
 * and the returned handle. The start fills the fields in step by step and {@link #close()} stops whatever is in them,
 * also halfway through a start (the Ctrl-C hook); {@link StackServices} makes sure no service starts once closing has
 * begun. Once the stack is up, a service that crashes is started again by its {@link ServiceSupervisor}. With
 * {@link StackOptions#instances} above one, each service runs that many times, each instance on a port of its own, and
 * the service's port is a {@link ServiceBalancer} in front of them.
 */
public final class LocalStack implements AutoCloseable {

    final StackOptions options;
    final StackFiles files;
    final StackConsole console;
    final ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "local-stack");
        thread.setDaemon(true);
        return thread;
    });
    final StackServices services;
    private final AtomicBoolean closing = new AtomicBoolean();
    volatile boolean claimed;
    volatile Ports ports;
    volatile StackFiles.Secrets secrets;
    volatile StackPostgres postgres;
    volatile KraftBroker kafka;
    volatile StackMail mail;
    volatile SandboxCredentials credentials;
    volatile StackChain chain;
    volatile StackSandbox.ExamplePlan examplePlan; // null without the dev chain, or when it could not be made
    private boolean runsDevChain;
    private CompletableFuture<KraftBroker> kafkaStart = CompletableFuture.completedFuture(null);
    private CompletableFuture<StackChain> chainStart = CompletableFuture.completedFuture(null);

    LocalStack(StackOptions options) {
        this.options = options;
        this.files = new StackFiles(options.dataDir);
        this.console = new StackConsole(options.out);
        this.services = new StackServices(options, files, console, executor);
    }

    public static void main(String[] args) {
        RunLocal.main(args);
    }

    /**
     * Starts the whole stack; returns once every service is ready and the sandbox merchant exists.
     *
     * @throws StackStartException with a message for people; everything started so far is stopped again
     */
    public static LocalStack start(StackOptions options) {
        LocalStack stack = new LocalStack(options);
        try {
            stack.startUp();
            return stack;
        } catch (RuntimeException | Error e) {
            stack.close();
            throw e;
        }
    }

    /** The start, step by step; a failure comes out as a {@link StackStartException}; the caller stops what started. */
    void startUp() {
        try {
            startSteps();
        } catch (RuntimeException e) {
            // Kafka and the dev chain may still be starting: awaited, so that close() finds and stops them.
            CompletableFuture.allOf(kafkaStart, chainStart)
                    .exceptionally(failure -> null)
                    .join();
            // A step that failed on another thread: its exception as thrown there.
            throw e instanceof CompletionException && e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    private void startSteps() {
        long begin = System.nanoTime();
        runsDevChain = StackChain.runs(options, console);
        ServiceProcess.checkJars(options, runsDevChain);
        try {
            Files.createDirectories(files.logDir);
        } catch (IOException e) {
            throw new StackStartException("Cannot create the data directory " + StackConsole.path(files.root) + ": " + e
                    + ". Set STACK_DATA_DIR to a writable directory.");
        }
        files.claim();
        claimed = true;
        for (long pid : files.stopLeftoverServices()) {
            console.say("stopped a service (pid " + pid + ") an earlier launcher left running");
        }
        boolean embeddedPostgres = StackPostgres.mustEmbed(options);
        Set<StackPort> leftOut = EnumSet.noneOf(StackPort.class);
        if (embeddedPostgres) {
            StackPostgres.stopLeftRunning(files.postgresDir, console);
        } else {
            leftOut.add(StackPort.EMBEDDED_POSTGRES);
        }
        if (runsDevChain) {
            StackChain.stopLeftRunning(files, console);
        } else {
            leftOut.addAll(List.of(StackPort.DEV_CHAIN, StackPort.CHAIN_WATCHER));
        }
        Predicate<StackPort> runByYou = port -> port.service != null && options.skipped.contains(port.service);
        ports = Ports.assign(options.ports, runByYou, leftOut).withInstances(options.instances, runByYou);
        secrets = files.loadOrCreateSecrets();

        // PostgreSQL, Kafka and the dev chain start side by side. The services need the database at once; Kafka only
        // once they publish or consume, so they start while the broker may still be coming up (its address is fixed
        // already). chain-watcher starts once its chain answers.
        int kafkaPort = ports.port(StackPort.KAFKA);
        kafkaStart = CompletableFuture.supplyAsync(() -> kafka = StackKafka.start(files, kafkaPort, console), executor);
        if (runsDevChain) {
            int port = ports.port(StackPort.DEV_CHAIN);
            chainStart = CompletableFuture.supplyAsync(() -> chain = StackChain.start(files, port, console), executor);
        }
        mail = StackMail.start(files, ports.port(StackPort.SMTP), console);
        postgres = StackPostgres.start(embeddedPostgres, options, files, ports, console);
        services.startBalancers(ports);
        List<CompletableFuture<Void>> ready = new ArrayList<>();
        for (StackService service : StackService.values()) {
            if (options.runs(service, runsDevChain)) {
                ready.add(CompletableFuture.runAsync(() -> launchInstances(service), executor));
            }
        }
        services.describeRunByYou(ports, runsDevChain, service -> environment(service, 1));
        chainStart.join();
        kafkaStart.join();
        StackKafka.createTopics(kafka, files);
        StackServices.awaitAll(ready);
        StackSandbox.awaitGatewayRunByYou(this);
        credentials = new AdminClient(adminUrl(), adminToken()).ensureSandboxMerchant(files, baseUrl(), console);
        SandboxWallet wallet = SandboxWallet.loadOrCreate(files.sandboxWalletFile);
        StackSandbox.registerWallet(this, wallet);
        examplePlan = chain == null ? null : StackSandbox.ensureExamplePlan(this, wallet);
        StackSandbox.writeStackEnv(this, wallet);
        services.superviseAll();
        console.summary((System.nanoTime() - begin) / 1e9, this, wallet);
    }

    /**
     * Starts every instance of the service from its image (unpacked once, by the first), chain-watcher's once its
     * chain answers; returns when all are ready.
     */
    private void launchInstances(StackService service) {
        List<ServiceProcess> instances = new ArrayList<>();
        for (int instance = 1; instance <= options.instances; instance++) {
            instances.add(new ServiceProcess(
                    service,
                    instance,
                    ports.instancePort(StackPort.of(service), instance),
                    files,
                    options,
                    environment(service, instance)));
        }
        instances.get(0).prepareImage();
        instances.forEach(process -> process.useImageOf(instances.get(0)));
        if (service == StackService.CHAIN_WATCHER) {
            chainStart.join();
        }
        StackServices.awaitAll(instances.stream()
                .map(process -> CompletableFuture.runAsync(() -> services.launch(process, true), executor))
                .toList());
    }

    private Map<String, String> environment(StackService service, int instance) {
        return ServiceEnvironment.of(service, instance, options, ports, secrets, postgres.server);
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

    /**
     * The gateway's private key as internal caller ({@code Ed25519:<Base64 PKCS#8 DER>}), which signs
     * {@code X-Internal-Auth} (to call a service directly in a test: auth-lib's {@code InternalTokenSigner.parse}).
     */
    public String gatewayPrivateKey() {
        return secrets.gateway().privateKey();
    }

    /** The chain watcher's own private key as internal caller (to report to a service directly in a test). */
    public String chainWatcherPrivateKey() {
        return secrets.chainWatcher().privateKey();
    }

    /** {@code <data dir>/stack.env}: what {@code ./signed-request}, {@code ./dev-pay} and {@code ./dev-subscribe} read. */
    public Path stackEnvFile() {
        return files.stackEnvFile;
    }

    /** {@code <data dir>/mail}: every e-mail the stack's SMTP server received, as {@code <n>.eml} ({@code ./dev-mail}). */
    public Path mailDir() {
        return files.mailDir;
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
        SandboxCredentials created =
                admin.createKey(admin.createMerchant(name, "merchant-" + UUID.randomUUID() + "@example.com"), mode);
        return created.withPublishableKey(admin.createPublishableKey(created.merchantId(), mode));
    }

    /** {@code http://127.0.0.1:<port>} of a service ({@code gateway}, {@code payment-links-service}, ...). */
    public String serviceUrl(String service) {
        return ports.url(StackPort.of(StackService.byName(service)));
    }

    public Optional<DevChain> devChain() {
        return Optional.ofNullable(chain).map(started -> started.devChain);
    }

    /**
     * The names of the service's running instances: its own name, then {@code <service>-2} and so on when the stack
     * runs more than one of each ({@link StackOptions#instances}). Every method taking a service's name takes these.
     */
    public List<String> instances(String service) {
        StackService which = StackService.byName(service);
        return IntStream.rangeClosed(1, options.instances)
                .mapToObj(instance -> ServiceProcess.name(which, instance))
                .toList();
    }

    public boolean isRunning(String service) {
        return services.isRunning(service);
    }

    /**
     * Kills a service at once (SIGKILL), like a crash; but asked for, so it is not restarted: it stays down until
     * {@link #startService}.
     */
    public void killService(String service) {
        services.kill(service);
    }

    /** Stops a service gracefully (SIGTERM, SIGKILL after 20 s); it is not restarted until {@link #startService}. */
    public void stopService(String service) {
        services.stop(service);
    }

    /**
     * Starts a stopped or killed service again on the same port and waits until it is ready; from then on a crash of it
     * is restarted again, its earlier crashes forgotten.
     */
    public void startService(String service) {
        services.start(service);
    }

    /** How often the stack restarted a service after a crash (see {@link ServiceSupervisor}); 0 before it ran. */
    public int restarts(String service) {
        return services.restarts(service);
    }

    /** {@code http://127.0.0.1:<port>} of one instance ({@code chain-watcher-2}): its own port, not the balanced one. */
    public String instanceUrl(String instance) {
        return "http://127.0.0.1:" + services.process(instance).port;
    }

    /** SIGKILLs a service as a crash would (the kernel's out-of-memory killer, say): the stack restarts it. */
    public void crashService(String service) {
        services.crash(service);
    }

    /** Stops the Kafka broker cleanly (data kept); clients see connection failures until {@link #startKafka()}. */
    public void stopKafka() {
        kafka.stop();
    }

    /** Brings Kafka back at the same address with its data. */
    public void startKafka() {
        kafka.restart();
    }

    /**
     * Restarts the stack's own PostgreSQL ({@code STACK_POSTGRES=embedded}) on the same port and data: every
     * connection breaks; returns the seconds it was down.
     */
    public double restartPostgres() throws IOException {
        return postgres.restart(files);
    }

    boolean isClosed() {
        return services.isClosed();
    }

    /**
     * Stops everything: the services (SIGTERM, all at once, SIGKILL after 20 s, or 120 s for one that writes its
     * class-data archive as it exits), then Kafka, the embedded PostgreSQL and the dev chain (SIGTERM: anvil writes
     * its state). Drops the databases and deletes the data directory when the options say so. Safe to call twice and
     * halfway through a start; a part that does not stop cleanly is reported and the rest still stopped. Nothing is
     * restarted once it began, also not a service that crashed just before.
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        services.close();
        if (mail != null) {
            quietly("the SMTP server did not stop cleanly: ", mail);
        }
        if (kafka != null) {
            quietly("Kafka did not stop cleanly: ", kafka);
        }
        if (postgres != null) {
            if (options.dropDatabasesOnClose) {
                for (StackService service : StackService.values()) {
                    quietly("", () -> postgres.dropDatabase(options.databaseName(service)));
                }
            }
            quietly("could not stop the embedded PostgreSQL: ", postgres);
        }
        if (chain != null) {
            quietly("the dev chain did not stop cleanly: ", chain);
        }
        executor.shutdownNow();
        if (claimed) {
            quietly("could not delete " + files.launcherPidFile + ": ", files::release);
        }
        if (options.deleteDataDirOnClose) {
            deleteDataDir();
        }
    }

    /** Closes a part of the stack: what goes wrong is said on standard error, and the rest still stopped. */
    private void quietly(String problem, AutoCloseable part) {
        try {
            part.close();
        } catch (Exception e) {
            System.err.println("[stack] " + problem + e.getMessage()); // worth a line, not worth stopping for
        }
    }

    void deleteDataDir() {
        quietly("could not delete " + files.root + ": ", () -> DirectoryTree.delete(files.root));
    }
}
