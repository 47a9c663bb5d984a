package dev.cryptopay.deploy;

import dev.cryptopay.deploy.console.DisplayPath;
import dev.cryptopay.deploy.console.StackConsole;
import dev.cryptopay.deploy.console.StackSummary;
import dev.cryptopay.deploy.datadir.DataDirLock;
import dev.cryptopay.deploy.datadir.StackLayout;
import dev.cryptopay.deploy.datadir.StackSecrets;
import dev.cryptopay.deploy.infrastructure.StackKafka;
import dev.cryptopay.deploy.infrastructure.StackPostgres;
import dev.cryptopay.deploy.ports.PortPlan;
import dev.cryptopay.deploy.process.CrashWatch;
import dev.cryptopay.deploy.process.JarSnapshots;
import dev.cryptopay.deploy.process.ParentWatchAgent;
import dev.cryptopay.deploy.process.ServiceProcess;
import dev.cryptopay.deploy.sandbox.AdminClient;
import dev.cryptopay.deploy.sandbox.SandboxMerchant;
import dev.cryptopay.testsupport.KraftBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Starts a run, in this order: the checks that need nothing running (jars, data directory, its lock, ports), then
 * PostgreSQL and Kafka side by side, every service at once, and once they are ready the sandbox merchant,
 * {@code stack.env}, the crash watch and the summary. What fails comes out as a {@link StackStartException} written for
 * people; the caller stops whatever started.
 */
final class StackStartup {

    private final StackRun run;
    private final StackOptions options;
    private final StackLayout layout;
    private final StackConsole console;

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
        checkJars();
        createDirectories();
        run.lock(DataDirLock.claim(layout));
        boolean embeddedPostgres = StackPostgres.mustEmbed(options);
        if (embeddedPostgres) {
            StackPostgres.stopLeftRunning(layout.postgresDir(), console);
        }
        run.ports(PortPlan.assign(options.ports(), this::isRunByYou, embeddedPostgres, console));
        run.secrets(StackSecrets.loadOrCreate(layout.secretsFile()));

        // PostgreSQL and Kafka start side by side. The services need the database at once; Kafka only once they
        // publish or consume, so they start while the broker may still be coming up (its address is fixed already).
        CompletableFuture<KraftBroker> kafkaStart = CompletableFuture.supplyAsync(
                () -> StackKafka.start(layout, run.ports().port(StackPort.KAFKA), console), run.executor());
        startPostgres(embeddedPostgres, kafkaStart);

        List<CompletableFuture<Void>> ready = run.launchAll(newProcesses());
        describeServicesRunByYou();
        run.kafka(StartSteps.join(kafkaStart));
        StackKafka.createTopics(run.kafka(), layout);
        StartSteps.awaitAll(ready);
        awaitGatewayRunByYou();
        run.credentials(new SandboxMerchant(
                        layout,
                        run.baseUrl(),
                        new AdminClient(run.adminUrl(), run.secrets().adminToken()),
                        console)
                .ensure());
        writeStackEnv();
        run.processes().forEach(process -> CrashWatch.watch(process, run::isClosed, console));
        console.summary((System.nanoTime() - begin) / 1e9, summary());
    }

    private void checkJars() {
        List<String> missing = new ArrayList<>();
        for (StackService service : StackService.values()) {
            if (!options.isSkipped(service) && !Files.isRegularFile(jar(service))) {
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

    /** Starts PostgreSQL and creates the databases; on failure Kafka is still awaited, so that close() stops it. */
    private void startPostgres(boolean embedded, CompletableFuture<KraftBroker> kafkaStart) {
        try {
            int embeddedPort = embedded ? run.ports().port(StackPort.EMBEDDED_POSTGRES) : 0;
            run.postgres(StackPostgres.start(embedded, options, layout, embeddedPort, console));
            for (StackService service : StackService.values()) {
                run.postgres().ensureDatabase(options.databaseName(service));
            }
        } catch (RuntimeException e) {
            try {
                run.kafka(StartSteps.join(kafkaStart));
            } catch (RuntimeException kafkaFailure) {
                e.addSuppressed(kafkaFailure);
            }
            throw e;
        }
    }

    private List<ServiceProcess> newProcesses() {
        Path agentJar = ParentWatchAgent.writeJar(layout.root());
        List<ServiceProcess> processes = new ArrayList<>();
        for (StackService service : StackService.values()) {
            if (!options.isSkipped(service)) {
                processes.add(new ServiceProcess(
                        service,
                        run.ports().port(StackPort.of(service)),
                        JarSnapshots.snapshot(jar(service), layout.jarsDir()),
                        layout.serviceLog(service),
                        layout.root(),
                        options.jvmOptions(),
                        agentJar,
                        environment(service)));
            }
        }
        return processes;
    }

    /** Writes {@code <service>.env} for each service you run yourself and says how to start it. */
    private void describeServicesRunByYou() {
        for (StackService service : StackService.values()) {
            if (options.isSkipped(service)) {
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

    private void writeStackEnv() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("BASE_URL", run.baseUrl());
        values.put("API_KEY", run.credentials().apiKey());
        values.put("PRIVATE_KEY", run.credentials().privateKey());
        values.put("ADMIN_URL", run.adminUrl());
        values.put("ADMIN_TOKEN", run.secrets().adminToken());
        EnvFile.write(layout.stackEnvFile(), values);
    }

    private StackSummary summary() {
        StackPostgres postgres = run.postgres();
        return new StackSummary(
                run.baseUrl(),
                run.credentials(),
                run.adminUrl(),
                run.secrets().adminToken(),
                run.kafka().bootstrapServers(),
                postgres.host(),
                postgres.port(),
                postgres.isEmbedded(),
                layout.logDir(),
                layout.stackEnvFile());
    }

    private Map<String, String> environment(StackService service) {
        return ServiceEnvironment.of(
                service, options, run.ports(), run.secrets(), run.postgres().server());
    }

    private Path jar(StackService service) {
        return options.home().resolve(service.jarPath());
    }
}
