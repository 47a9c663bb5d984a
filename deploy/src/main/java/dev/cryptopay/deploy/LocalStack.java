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
import java.util.EnumMap;
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

/**
 * The local stack: PostgreSQL (the local server or an embedded one), a KRaft Kafka broker in this JVM, the dev chain
 * (anvil, when Node.js and npm are there), and gateway, payment-links-service, subscriptions-service, webhook-service
 * and chain-watcher each as its own {@code java -jar} process, plus a sandbox merchant with a wallet whose
 * credentials are printed and written to {@code <data dir>/stack.env}.
 *
 * <p>{@link #main} is {@code ./run-local}; tests use {@link #start(StackOptions)} with {@link StackOptions#forTests()}
 * and the returned handle. The start fills the fields in step by step and {@link #close()} stops whatever is in them,
 * also halfway through a start (the Ctrl-C hook); the monitor makes sure no service starts once closing has begun.
 * Once the stack is up, a service that crashes is started again by its {@link ServiceSupervisor}.
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
    private final Map<StackService, ServiceProcess> services = new EnumMap<>(StackService.class);
    private final Map<StackService, ServiceSupervisor> supervisors = new EnumMap<>(StackService.class);
    private volatile boolean closed;
    volatile boolean claimed;
    volatile Ports ports;
    volatile StackFiles.Secrets secrets;
    volatile StackPostgres postgres;
    volatile KraftBroker kafka;
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
        ports = Ports.assign(
                options.ports, port -> port.service != null && options.skipped.contains(port.service), leftOut);
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
        startPostgres(embeddedPostgres);
        List<CompletableFuture<Void>> ready = new ArrayList<>();
        for (StackService service : StackService.values()) {
            if (options.runs(service, runsDevChain)) {
                ServiceProcess process = new ServiceProcess(
                        service, ports.port(StackPort.of(service)), files, options, environment(service));
                ready.add(CompletableFuture.runAsync(
                        () -> {
                            process.prepareImage();
                            if (service == StackService.CHAIN_WATCHER) {
                                chainStart.join();
                            }
                            launch(process, true);
                        },
                        executor));
            }
        }
        describeServicesRunByYou();
        chainStart.join();
        kafkaStart.join();
        StackKafka.createTopics(kafka, files);
        awaitAll(ready);
        StackSandbox.awaitGatewayRunByYou(this);
        credentials = new AdminClient(adminUrl(), adminToken()).ensureSandboxMerchant(files, baseUrl(), console);
        SandboxWallet wallet = SandboxWallet.loadOrCreate(files.sandboxWalletFile);
        StackSandbox.registerWallet(this, wallet);
        examplePlan = chain == null ? null : StackSandbox.ensureExamplePlan(this, wallet);
        StackSandbox.writeStackEnv(this, wallet);
        synchronized (this) {
            services.values().forEach(process -> supervise(process, true));
        }
        console.summary((System.nanoTime() - begin) / 1e9, this, wallet);
    }

    /** Waits until every future succeeded, or until the first one fails (its exception comes out as is). */
    static void awaitAll(List<CompletableFuture<Void>> futures) {
        CompletableFuture<Void> firstFailure = new CompletableFuture<>();
        futures.forEach(future -> future.whenComplete((done, failure) -> {
            if (failure != null) {
                firstFailure.completeExceptionally(failure);
            }
        }));
        CompletableFuture.anyOf(CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)), firstFailure)
                .join();
    }

    /**
     * PostgreSQL and every database (chain-watcher's too, so --reset always finds the same set), each commented with
     * its data directory, which its name's suffix only hashes.
     */
    private void startPostgres(boolean embedded) {
        if (embedded) {
            postgres = StackPostgres.embedded(files, ports.port(StackPort.EMBEDDED_POSTGRES), console);
        } else {
            postgres = StackPostgres.external(options);
            console.say("PostgreSQL: the server at " + options.pgHost + ":" + options.pgPort + " (user "
                    + options.pgUser + ")");
        }
        for (StackService service : StackService.values()) {
            postgres.ensureDatabase(options.databaseName(service), "local stack data directory " + files.realRoot());
        }
    }

    private void describeServicesRunByYou() {
        for (StackService service : options.skipped) {
            if (service != StackService.CHAIN_WATCHER || runsDevChain) {
                Path env = files.root.resolve(service + ".env");
                EnvFile.write(env, environment(service));
                String shown = StackConsole.path(env);
                console.say(service + " is yours to run (STACK_SKIP) on port "
                        + ports.port(StackPort.of(service)) + ", with the settings in " + shown + ": set -a; . "
                        + shown + "; set +a; ./mvnw -pl " + service + " spring-boot:run");
            }
        }
    }

    private Map<String, String> environment(StackService service) {
        return ServiceEnvironment.of(service, options, ports, secrets, postgres.server);
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

    public boolean isRunning(String service) {
        return process(service).isRunning();
    }

    /**
     * Kills a service at once (SIGKILL), like a crash; but asked for, so it is not restarted: it stays down until
     * {@link #startService}.
     */
    public void killService(String service) {
        process(service).stop(true);
    }

    /** Stops a service gracefully (SIGTERM, SIGKILL after 20 s); it is not restarted until {@link #startService}. */
    public void stopService(String service) {
        process(service).stop(false);
    }

    /**
     * Starts a stopped or killed service again on the same port and waits until it is ready; from then on a crash of it
     * is restarted again, its earlier crashes forgotten.
     */
    public void startService(String service) {
        ServiceProcess process = process(service);
        launch(process, false);
        supervise(process, true);
    }

    /** How often the stack restarted a service after a crash (see {@link ServiceSupervisor}); 0 before it ran. */
    public synchronized int restarts(String service) {
        ServiceSupervisor supervisor = supervisors.get(StackService.byName(service));
        return supervisor == null ? 0 : supervisor.restarts();
    }

    /** Stops the Kafka broker cleanly (data kept); clients see connection failures until {@link #startKafka()}. */
    public void stopKafka() {
        kafka.stop();
    }

    /** Brings Kafka back at the same address with its data. */
    public void startKafka() {
        kafka.restart();
    }

    /** Starts the service and waits until it is ready; its pid goes to {@code services.pid} at once. */
    void launch(ServiceProcess process, boolean freshLog) {
        synchronized (this) {
            if (closed) {
                throw new StackStartException("start abandoned: the stack is stopping");
            }
            services.put(process.service, process);
            startRecorded(process, freshLog);
        }
        double seconds = process.awaitReady(options.readyTimeout, this::isClosed);
        console.say(String.format("%s ready in %.1f s (port %d)", process.service, seconds, process.port));
    }

    /** From now on a crash of the running service is restarted (a start on purpose forgets earlier crashes). */
    synchronized void supervise(ServiceProcess process, boolean onPurpose) {
        supervisors
                .computeIfAbsent(process.service, service -> new ServiceSupervisor(process, this))
                .watch(onPurpose);
    }

    /**
     * A supervisor's restart: starts the service again (log appended) unless the stack is closing or the service was
     * stopped or started on purpose since the run {@code crashed}; true when it started. Under the monitor, so that
     * {@link #close()} either stops the new run or no restart begins.
     */
    synchronized boolean restart(ServiceProcess process, Process crashed) {
        if (closed || process.stopRequested() || process.process != crashed) {
            return false;
        }
        startRecorded(process, false);
        return true;
    }

    private void startRecorded(ServiceProcess process, boolean freshLog) {
        process.start(freshLog);
        // services.pid names every running service, so a start after this launcher is killed stops them.
        files.recordServices(
                services.values().stream().map(started -> started.process).toList());
    }

    private synchronized ServiceProcess process(String service) {
        StackService which = StackService.byName(service);
        ServiceProcess process = services.get(which);
        if (process == null) {
            throw new IllegalStateException("the stack has not started " + service
                    + (options.skipped.contains(which) ? " (skipped: you run it yourself)" : ""));
        }
        return process;
    }

    boolean isClosed() {
        return closed;
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
        List<ServiceProcess> started;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            started = new ArrayList<>(services.values());
        }
        List<String> recording = started.stream()
                .filter(process -> process.isRunning() && process.recording != null)
                .map(p -> p.service.serviceName)
                .toList();
        if (!recording.isEmpty()) {
            console.say(String.join(", ", recording) + " write their class-data archives as they stop (once per "
                    + "build: later starts are faster)…");
        }
        started.stream()
                .map(process -> CompletableFuture.runAsync(() -> process.stop(false), executor))
                .toList()
                .forEach(stopping -> quietly("", stopping::join));
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
