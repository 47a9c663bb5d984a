package dev.cryptopay.deploy;

import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.deploy.console.DisplayPath;
import dev.cryptopay.deploy.console.StackConsole;
import dev.cryptopay.deploy.console.StackSummary;
import dev.cryptopay.deploy.datadir.DataDirLock;
import dev.cryptopay.deploy.datadir.StackLayout;
import dev.cryptopay.deploy.datadir.StackSecrets;
import dev.cryptopay.deploy.infrastructure.StackChain;
import dev.cryptopay.deploy.infrastructure.StackKafka;
import dev.cryptopay.deploy.infrastructure.StackPostgres;
import dev.cryptopay.deploy.ports.PortPlan;
import dev.cryptopay.deploy.process.CrashWatch;
import dev.cryptopay.deploy.process.ParentWatchAgent;
import dev.cryptopay.deploy.process.ServiceImage;
import dev.cryptopay.deploy.process.ServiceProcess;
import dev.cryptopay.deploy.sandbox.AdminClient;
import dev.cryptopay.deploy.sandbox.SandboxMerchant;
import dev.cryptopay.deploy.sandbox.SandboxWallet;
import dev.cryptopay.testsupport.KraftBroker;
import dev.cryptopay.testsupport.chain.DevChain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Starts a run, in this order: whether the dev chain runs, the checks that need nothing running (jars, data directory,
 * its lock, ports), then PostgreSQL, Kafka and the dev chain side by side, every service at once (chain-watcher once
 * the chain answers), and once they are ready the sandbox merchant and its wallet, {@code stack.env}, the crash watch
 * and the summary. What fails comes out as a {@link StackStartException} written for
 * people; the caller stops whatever started.
 */
final class StackStartup {

    private final StackRun run;
    private final StackOptions options;
    private final StackLayout layout;
    private final StackConsole console;
    private CompletableFuture<KraftBroker> kafkaStart = CompletableFuture.completedFuture(null);
    private CompletableFuture<StackChain> chainStart = CompletableFuture.completedFuture(null);

    private StackStartup(StackRun run) {
        this.run = run;
        this.options = run.options();
        this.layout = run.layout();
        this.console = run.console();
    }

    static void start(StackRun run) {
        new StackStartup(run).start();
    }

    private void start() {
        long begin = System.nanoTime();
        run.runsDevChain(runsDevChain(options, console));
        checkJars();
        createDirectories();
        run.lock(DataDirLock.claim(layout));
        boolean embeddedPostgres = StackPostgres.mustEmbed(options);
        if (embeddedPostgres) {
            StackPostgres.stopLeftRunning(layout.postgresDir(), console);
        }
        if (run.runsDevChain()) {
            StackChain.stopLeftRunning(layout, console);
        }
        run.ports(PortPlan.assign(options.ports(), this::isRunByYou, leftOut(embeddedPostgres), console));
        run.secrets(StackSecrets.loadOrCreate(layout.secretsFile()));

        // PostgreSQL, Kafka and the dev chain start side by side. The services need the database at once; Kafka only
        // once they publish or consume, so they start while the broker may still be coming up (its address is fixed
        // already). chain-watcher starts once its chain answers.
        kafkaStart = CompletableFuture.supplyAsync(
                () -> StackKafka.start(layout, run.ports().port(StackPort.KAFKA), console), run.executor());
        chainStart = run.runsDevChain()
                ? CompletableFuture.supplyAsync(
                        () -> StackChain.start(layout, run.ports().port(StackPort.DEV_CHAIN), console), run.executor())
                : CompletableFuture.completedFuture(null);
        startPostgres(embeddedPostgres);

        List<ServiceProcess> processes = new ArrayList<>();
        settle(() -> processes.addAll(newProcesses()));
        List<CompletableFuture<Void>> ready = new ArrayList<>(run.launchAll(processes.stream()
                .filter(process -> process.service() != StackService.CHAIN_WATCHER)
                .toList()));
        describeServicesRunByYou();
        settle(() -> run.chain(StartSteps.join(chainStart)));
        ready.addAll(run.launchAll(processes.stream()
                .filter(process -> process.service() == StackService.CHAIN_WATCHER)
                .toList()));
        settle(() -> run.kafka(StartSteps.join(kafkaStart)));
        StackKafka.createTopics(run.kafka(), layout);
        StartSteps.awaitAll(ready);
        awaitGatewayRunByYou();
        run.credentials(new SandboxMerchant(
                        layout,
                        run.baseUrl(),
                        new AdminClient(run.adminUrl(), run.secrets().adminToken()),
                        console)
                .ensure());
        SandboxWallet wallet = SandboxWallet.loadOrCreate(layout.sandboxWalletFile());
        wallet.register(new SignedClient(run.baseUrl(), run.credentials()), console, layout.sandboxWalletFile());
        writeStackEnv(wallet);
        run.processes().forEach(process -> CrashWatch.watch(process, run::isClosed, console));
        console.summary((System.nanoTime() - begin) / 1e9, summary(wallet));
    }

    /**
     * Whether this run has the dev chain and chain-watcher: when the options want it and the machine has what it
     * needs; otherwise one line says why not (what to install).
     */
    static boolean runsDevChain(StackOptions options, StackConsole console) {
        if (!options.devChain()) {
            console.devChainOff();
            return false;
        }
        Optional<String> missing = options.devChainTools().missing();
        missing.ifPresent(console::devChainSkipped);
        return missing.isEmpty();
    }

    /** The listeners this run has no port for. */
    private Set<StackPort> leftOut(boolean embeddedPostgres) {
        Set<StackPort> leftOut = EnumSet.noneOf(StackPort.class);
        if (!embeddedPostgres) {
            leftOut.add(StackPort.EMBEDDED_POSTGRES);
        }
        if (!run.runsDevChain()) {
            leftOut.add(StackPort.DEV_CHAIN);
            leftOut.add(StackPort.CHAIN_WATCHER);
        }
        return leftOut;
    }

    /**
     * Runs a start step; when it fails, Kafka and the dev chain, which may still be starting, are awaited first (a
     * failure of theirs added as suppressed), so that close() finds and stops them.
     */
    private void settle(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            for (Runnable pending : List.<Runnable>of(
                    () -> run.kafka(StartSteps.join(kafkaStart)), () -> run.chain(StartSteps.join(chainStart)))) {
                try {
                    pending.run();
                } catch (RuntimeException other) {
                    if (other != e) {
                        e.addSuppressed(other);
                    }
                }
            }
            throw e;
        }
    }

    private void checkJars() {
        List<String> missing = new ArrayList<>();
        for (StackService service : StackService.values()) {
            if (run.includes(service) && !options.isSkipped(service) && !Files.isRegularFile(jar(service))) {
                missing.add(DisplayPath.of(jar(service)));
            }
        }
        if (!missing.isEmpty()) {
            throw new StackStartException("Service jar" + (missing.size() > 1 ? "s" : "") + " not found: "
                    + String.join(", ", missing) + ". Build them first: run ./mvnw -DskipTests install in "
                    + DisplayPath.of(options.home()) + " (./run-local does this for you).");
        }
    }

    private void createDirectories() {
        try {
            Files.createDirectories(layout.logDir());
        } catch (IOException e) {
            throw new StackStartException("Cannot create the data directory " + DisplayPath.of(layout.root()) + ": " + e
                    + ". Set STACK_DATA_DIR to a writable directory.");
        }
    }

    /** A port of a service you run yourself ({@code STACK_SKIP}; the admin API is the gateway's). */
    private boolean isRunByYou(StackPort port) {
        return port.service().map(options::isSkipped).orElse(false);
    }

    /**
     * Starts PostgreSQL and creates the databases (chain-watcher's too, so --reset always finds the same set), each
     * commented with its data directory, which its name's suffix only hashes.
     */
    private void startPostgres(boolean embedded) {
        settle(() -> {
            int embeddedPort = embedded ? run.ports().port(StackPort.EMBEDDED_POSTGRES) : 0;
            run.postgres(StackPostgres.start(embedded, options, layout, embeddedPort, console));
            for (StackService service : StackService.values()) {
                run.postgres()
                        .ensureDatabase(
                                options.databaseName(service), "local stack data directory " + layout.realRoot());
            }
        });
    }

    /** The processes of the services the stack runs itself, their images prepared side by side. */
    private List<ServiceProcess> newProcesses() {
        Path agentJar = ParentWatchAgent.writeJar(layout.root());
        Map<StackService, CompletableFuture<ServiceImage>> images = new EnumMap<>(StackService.class);
        for (StackService service : StackService.values()) {
            if (run.includes(service) && !options.isSkipped(service)) {
                images.put(
                        service,
                        CompletableFuture.supplyAsync(
                                () -> ServiceImage.prepare(jar(service), layout.jarsDir(), service.serviceName()),
                                run.executor()));
            }
        }
        StartSteps.awaitAll(images.values().stream()
                .map(image -> image.<Void>thenApply(ignored -> null))
                .toList());
        List<ServiceProcess> processes = new ArrayList<>();
        for (Map.Entry<StackService, CompletableFuture<ServiceImage>> image : images.entrySet()) {
            StackService service = image.getKey();
            processes.add(new ServiceProcess(
                    service,
                    run.ports().port(StackPort.of(service)),
                    image.getValue().join(),
                    layout.serviceLog(service),
                    layout.root(),
                    options.jvmOptions(),
                    agentJar,
                    options.classDataSharing(),
                    environment(service)));
        }
        return processes;
    }

    /** Writes {@code <service>.env} for each service you run yourself and says how to start it. */
    private void describeServicesRunByYou() {
        for (StackService service : StackService.values()) {
            if (run.includes(service) && options.isSkipped(service)) {
                Path env = layout.serviceEnvFile(service);
                EnvFile.write(env, environment(service));
                console.serviceIsYours(service, run.ports().port(StackPort.of(service)), env);
            }
        }
    }

    /** The sandbox merchant is created through the gateway, so a gateway you run yourself is waited for. */
    private void awaitGatewayRunByYou() {
        if (!options.isSkipped(StackService.GATEWAY)) {
            return;
        }
        console.awaitingYourGateway(
                options.readyTimeout().toSeconds(), run.ports().port(StackPort.GATEWAY));
        ServiceProcess.awaitUp(
                run.ports().url(StackPort.GATEWAY) + "/actuator/health/readiness",
                options.readyTimeout(),
                run::isClosed,
                "the gateway you run yourself (STACK_SKIP)");
    }

    private void writeStackEnv(SandboxWallet wallet) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("BASE_URL", run.baseUrl());
        values.put("API_KEY", run.credentials().apiKey());
        values.put("PRIVATE_KEY", run.credentials().privateKey());
        values.put("ADMIN_URL", run.adminUrl());
        values.put("ADMIN_TOKEN", run.secrets().adminToken());
        values.put("PUBLISHABLE_KEY", run.credentials().publishableKey());
        values.put("SANDBOX_WALLET_ADDRESS", wallet.firstAddress());
        values.put("SANDBOX_WALLET_XPUB", wallet.extendedPublicKey());
        if (run.chain() != null) {
            values.put("DEV_CHAIN_RPC_URL", run.chain().rpcUrl());
            values.put("DEV_CHAIN_ID", String.valueOf(DevChain.CHAIN_ID));
            values.put("CUSTOMER_ADDRESS", CustomerAccount.ADDRESS);
            values.put("CUSTOMER_PRIVATE_KEY", CustomerAccount.PRIVATE_KEY);
        }
        EnvFile.write(layout.stackEnvFile(), values);
    }

    private StackSummary summary(SandboxWallet wallet) {
        StackPostgres postgres = run.postgres();
        return new StackSummary(
                run.gatewayUrl(),
                run.baseUrl(),
                run.credentials(),
                run.adminUrl(),
                run.secrets().adminToken(),
                run.kafka().bootstrapServers(),
                postgres.host(),
                postgres.port(),
                postgres.isEmbedded(),
                layout.logDir(),
                layout.stackEnvFile(),
                wallet,
                layout.sandboxWalletFile(),
                run.chain() == null ? null : run.chain().rpcUrl(),
                ServiceEnvironment.DEV_CHAIN_CONFIRMATIONS);
    }

    private Map<String, String> environment(StackService service) {
        return ServiceEnvironment.of(
                service, options, run.ports(), run.secrets(), run.postgres().server());
    }

    private Path jar(StackService service) {
        return options.home().resolve(service.jarPath());
    }
}
