package dev.cryptopay.deploy;

import dev.cryptopay.deploy.console.StackConsole;
import dev.cryptopay.deploy.datadir.DataDirLock;
import dev.cryptopay.deploy.datadir.StackLayout;
import dev.cryptopay.deploy.datadir.StackSecrets;
import dev.cryptopay.deploy.infrastructure.StackChain;
import dev.cryptopay.deploy.infrastructure.StackPostgres;
import dev.cryptopay.deploy.ports.PortPlan;
import dev.cryptopay.deploy.process.ServiceProcess;
import dev.cryptopay.testsupport.KraftBroker;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One run of the stack: its options, data directory and console, and what it has started so far (the dev chain too). Start-up fills it
 * in step by step, the {@link LocalStack} handle reads it, and {@link StackShutdown} stops whatever is in it — also
 * halfway through a start, from the Ctrl-C hook. Its monitor makes sure no service starts once closing has begun.
 */
final class StackRun {

    private final StackOptions options;
    private final StackLayout layout;
    private final StackConsole console;
    private final ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "local-stack");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<StackService, ServiceProcess> services = new EnumMap<>(StackService.class);

    private volatile boolean closed;
    private volatile DataDirLock lock;
    private volatile PortPlan ports;
    private volatile StackSecrets secrets;
    private volatile StackPostgres postgres;
    private volatile KraftBroker kafka;
    private volatile SandboxCredentials credentials;
    private volatile boolean runsDevChain;
    private volatile StackChain chain;

    StackRun(StackOptions options) {
        this.options = options;
        this.layout = new StackLayout(options.dataDir());
        this.console = new StackConsole(options.out());
    }

    /**
     * Registers the processes of the services the stack runs itself and launches each on the executor.
     *
     * @return one future per service, done when it is ready
     * @throws StackStartException when the stack is closing already
     */
    synchronized List<CompletableFuture<Void>> launchAll(List<ServiceProcess> processes) {
        abortIfClosed();
        processes.forEach(process -> services.put(process.service(), process));
        List<CompletableFuture<Void>> ready = new ArrayList<>();
        for (ServiceProcess process : processes) {
            ready.add(CompletableFuture.runAsync(() -> launch(process, true), executor));
        }
        return ready;
    }

    /**
     * Starts the process unless the stack is closing, waits until it is ready and says so.
     *
     * @param freshLog start the log afresh (a new launcher run) rather than append (a restart within one run)
     */
    void launch(ServiceProcess process, boolean freshLog) {
        synchronized (this) {
            abortIfClosed();
            process.start(freshLog);
        }
        double seconds = process.awaitReady(options.readyTimeout(), this::isClosed);
        console.serviceReady(process.service(), seconds, process.port());
    }

    /** Marks the run closed; the service processes to stop, or empty when it was closed already. */
    synchronized Optional<List<ServiceProcess>> beginClosing() {
        if (closed) {
            return Optional.empty();
        }
        closed = true;
        return Optional.of(new ArrayList<>(services.values()));
    }

    boolean isClosed() {
        return closed;
    }

    /** The service's process. */
    ServiceProcess process(String service) {
        StackService which = StackService.byName(service);
        ServiceProcess process = services.get(which);
        if (process == null) {
            throw new IllegalStateException("the stack has not started " + service
                    + (options.isSkipped(which) ? " (skipped: you run it yourself)" : ""));
        }
        return process;
    }

    List<ServiceProcess> processes() {
        return List.copyOf(services.values());
    }

    /** {@code http://127.0.0.1:<gateway port>}: the gateway's root (checkout, API reference). */
    String gatewayUrl() {
        return ports.url(StackPort.GATEWAY);
    }

    /** {@code http://127.0.0.1:<gateway port>/api/v1}: the merchant base URL. */
    String baseUrl() {
        return gatewayUrl() + "/api/v1";
    }

    /** {@code http://127.0.0.1:<admin port>}: the gateway's admin API. */
    String adminUrl() {
        return ports.url(StackPort.ADMIN);
    }

    StackOptions options() {
        return options;
    }

    StackLayout layout() {
        return layout;
    }

    StackConsole console() {
        return console;
    }

    ExecutorService executor() {
        return executor;
    }

    DataDirLock lock() {
        return lock;
    }

    void lock(DataDirLock lock) {
        this.lock = lock;
    }

    PortPlan ports() {
        return ports;
    }

    void ports(PortPlan ports) {
        this.ports = ports;
    }

    StackSecrets secrets() {
        return secrets;
    }

    void secrets(StackSecrets secrets) {
        this.secrets = secrets;
    }

    StackPostgres postgres() {
        return postgres;
    }

    void postgres(StackPostgres postgres) {
        this.postgres = postgres;
    }

    KraftBroker kafka() {
        return kafka;
    }

    void kafka(KraftBroker kafka) {
        this.kafka = kafka;
    }

    SandboxCredentials credentials() {
        return credentials;
    }

    void credentials(SandboxCredentials credentials) {
        this.credentials = credentials;
    }

    /** Whether this run has the dev chain and chain-watcher (decided at start). */
    boolean runsDevChain() {
        return runsDevChain;
    }

    void runsDevChain(boolean runs) {
        this.runsDevChain = runs;
    }

    /** Whether the service belongs to this run (chain-watcher only with the dev chain), run by it or by you. */
    boolean includes(StackService service) {
        return service != StackService.CHAIN_WATCHER || runsDevChain;
    }

    /** The dev chain, or null while none runs. */
    StackChain chain() {
        return chain;
    }

    void chain(StackChain chain) {
        this.chain = chain;
    }

    private void abortIfClosed() {
        if (closed) {
            throw new StackStartException("start abandoned: the stack is stopping");
        }
    }
}
