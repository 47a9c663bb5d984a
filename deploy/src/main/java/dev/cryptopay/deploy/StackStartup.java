package dev.cryptopay.deploy;

import dev.cryptopay.deploy.chain.CustomerAccount;
import dev.cryptopay.deploy.sandbox.SandboxWallet;
import dev.cryptopay.testsupport.KraftBroker;
import dev.cryptopay.testsupport.chain.DevChain;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
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
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Starts a stack, in this order: whether the dev chain runs, the checks that need nothing running (jars, data
 * directory, its lock, leftovers of a killed launcher, ports), then PostgreSQL, Kafka and the dev chain side by side,
 * every service at once (chain-watcher once the chain answers), and once they are ready the sandbox merchant and its
 * wallet, {@code stack.env}, the crash watch and the summary. What fails comes out as a {@link StackStartException}
 * written for people; the caller stops whatever started.
 */
final class StackStartup {

    /** Created up front so the webhook consumer sees them at once rather than on its next metadata refresh. */
    static final List<String> EVENT_TOPICS = List.of("payment-links.events", "subscriptions.events");

    private final LocalStack stack;
    private final StackOptions options;
    private final StackFiles files;
    private final StackConsole console;
    private CompletableFuture<KraftBroker> kafkaStart = CompletableFuture.completedFuture(null);
    private CompletableFuture<StackChain> chainStart = CompletableFuture.completedFuture(null);

    private StackStartup(LocalStack stack) {
        this.stack = stack;
        this.options = stack.options;
        this.files = stack.files;
        this.console = stack.console;
    }

    static void start(LocalStack stack) {
        new StackStartup(stack).start();
    }

    private void start() {
        long begin = System.nanoTime();
        stack.runsDevChain = runsDevChain(options, console);
        checkJars();
        try {
            Files.createDirectories(files.logDir);
        } catch (IOException e) {
            throw new StackStartException("Cannot create the data directory " + DisplayPath.of(files.root()) + ": " + e
                    + ". Set STACK_DATA_DIR to a writable directory.");
        }
        files.claim();
        stack.claimed = true;
        for (long pid : files.stopLeftoverServices()) {
            console.say("stopped a service (pid " + pid + ") an earlier launcher left running");
        }
        boolean embeddedPostgres = StackPostgres.mustEmbed(options);
        if (embeddedPostgres) {
            StackPostgres.stopLeftRunning(files.postgresDir, console);
        }
        if (stack.runsDevChain) {
            StackChain.stopLeftRunning(files, console);
        }
        Set<StackPort> leftOut = EnumSet.noneOf(StackPort.class);
        if (!embeddedPostgres) {
            leftOut.add(StackPort.EMBEDDED_POSTGRES);
        }
        if (!stack.runsDevChain) {
            leftOut.addAll(List.of(StackPort.DEV_CHAIN, StackPort.CHAIN_WATCHER));
        }
        stack.ports = Ports.assign(
                options.ports, port -> port.service().map(options::isSkipped).orElse(false), leftOut);
        stack.secrets = files.loadOrCreateSecrets();

        // PostgreSQL, Kafka and the dev chain start side by side. The services need the database at once; Kafka only
        // once they publish or consume, so they start while the broker may still be coming up (its address is fixed
        // already). chain-watcher starts once its chain answers.
        kafkaStart = async(this::startKafka);
        if (stack.runsDevChain) {
            chainStart = async(() -> StackChain.start(files, stack.ports.port(StackPort.DEV_CHAIN), console));
        }
        settle(() -> startPostgres(embeddedPostgres));
        List<ServiceProcess> processes = new ArrayList<>();
        settle(() -> processes.addAll(newProcesses()));
        List<CompletableFuture<Void>> ready = new ArrayList<>(stack.launchAll(processes.stream()
                .filter(process -> process.service() != StackService.CHAIN_WATCHER)
                .toList()));
        describeServicesRunByYou();
        settle(() -> stack.chain = join(chainStart));
        ready.addAll(stack.launchAll(processes.stream()
                .filter(process -> process.service() == StackService.CHAIN_WATCHER)
                .toList()));
        settle(() -> stack.kafka = join(kafkaStart));
        createTopics();
        awaitAll(ready);
        awaitGatewayRunByYou();
        stack.credentials = SandboxMerchant.ensure(
                files, stack.baseUrl(), new AdminClient(stack.adminUrl(), stack.adminToken()), console);
        SandboxWallet wallet = SandboxWallet.loadOrCreate(files.sandboxWalletFile);
        registerWallet(wallet);
        writeStackEnv(wallet);
        stack.processes().forEach(process -> process.watch(stack::isClosed, console));
        console.summary((System.nanoTime() - begin) / 1e9, stack, wallet);
    }

    /** Whether the dev chain and chain-watcher run: when wanted and the machine has what they need (else says why). */
    static boolean runsDevChain(StackOptions options, StackConsole console) {
        if (!options.devChain) {
            console.say("dev chain and chain-watcher not started (STACK_CHAIN=off)");
            return false;
        }
        Optional<String> missing = options.devChainTools.missing();
        missing.ifPresent(what -> console.say("no dev chain and no chain-watcher: they need " + what + ". Install "
                + "Node.js 20 (it comes with npm) and start again; everything else runs without them."));
        return missing.isEmpty();
    }

    private <T> CompletableFuture<T> async(Supplier<T> step) {
        return CompletableFuture.supplyAsync(step, stack.executor);
    }

    /**
     * Runs a start step; when it fails, Kafka and the dev chain, which may still be starting, are awaited first (a
     * failure of theirs added as suppressed), so that close() finds and stops them.
     */
    private void settle(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            for (Runnable pending :
                    List.<Runnable>of(() -> stack.kafka = join(kafkaStart), () -> stack.chain = join(chainStart))) {
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

    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /** Waits until every future succeeded, or until the first one fails (its exception comes out as is). */
    static void awaitAll(List<CompletableFuture<Void>> futures) {
        List<CompletableFuture<Void>> pending = new ArrayList<>(futures);
        while (!pending.isEmpty()) {
            CompletableFuture.anyOf(pending.toArray(CompletableFuture[]::new))
                    .exceptionally(failure -> null)
                    .join();
            pending.stream()
                    .filter(CompletableFuture::isCompletedExceptionally)
                    .findFirst()
                    .ifPresent(StackStartup::join);
            pending.removeIf(CompletableFuture::isDone);
        }
    }

    private void checkJars() {
        List<String> missing = new ArrayList<>();
        for (StackService service : StackService.values()) {
            if (includes(service) && !options.isSkipped(service) && !Files.isRegularFile(jar(service))) {
                missing.add(DisplayPath.of(jar(service)));
            }
        }
        if (!missing.isEmpty()) {
            throw new StackStartException("Service jar" + (missing.size() > 1 ? "s" : "") + " not found: "
                    + String.join(", ", missing) + ". Build them first: run ./mvnw -DskipTests install in "
                    + DisplayPath.of(options.home) + " (./run-local does this for you).");
        }
    }

    private boolean includes(StackService service) {
        return service != StackService.CHAIN_WATCHER || stack.runsDevChain;
    }

    private KraftBroker startKafka() {
        long begin = System.nanoTime();
        int port = stack.ports.port(StackPort.KAFKA);
        try {
            KraftBroker broker = KraftBroker.start(files.kafkaDir, port);
            console.say(String.format(
                    "Kafka ready at %s in %.1f s (data in %s)",
                    broker.bootstrapServers(), (System.nanoTime() - begin) / 1e9, DisplayPath.of(files.kafkaDir)));
            return broker;
        } catch (RuntimeException e) {
            throw new StackStartException(
                    "Kafka did not start on 127.0.0.1:" + port + " with its data in "
                            + DisplayPath.of(files.kafkaDir) + ": " + StackStartException.rootCause(e)
                            + ". If the port "
                            + "was taken meanwhile, free it or set STACK_KAFKA_PORT; if the data is damaged, delete "
                            + DisplayPath.of(files.kafkaDir) + " (stored events are lost). Details in "
                            + DisplayPath.of(files.launcherLog) + ".",
                    e);
        }
    }

    private void createTopics() {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.kafka.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                30_000))) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = EVENT_TOPICS.stream()
                    .filter(t -> !existing.contains(t))
                    .map(t -> new NewTopic(t, 3, (short) 1))
                    .toList();
            if (!missing.isEmpty()) {
                admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new StackStartException(
                        "Kafka at " + stack.kafka.bootstrapServers() + " did not create the "
                                + "event topics: " + StackStartException.rootCause(e) + ". Details in "
                                + DisplayPath.of(files.launcherLog) + ".",
                        e);
            }
        }
    }

    /**
     * PostgreSQL and every database (chain-watcher's too, so --reset always finds the same set), each commented with
     * its data directory, which its name's suffix only hashes.
     */
    private void startPostgres(boolean embedded) {
        if (embedded) {
            stack.postgres = StackPostgres.embedded(files, stack.ports.port(StackPort.EMBEDDED_POSTGRES), console);
        } else {
            stack.postgres = StackPostgres.external(options);
            console.say("PostgreSQL: the server at " + options.pgHost + ":" + options.pgPort + " (user "
                    + options.pgUser + ")");
        }
        for (StackService service : StackService.values()) {
            stack.postgres.ensureDatabase(
                    options.databaseName(service), "local stack data directory " + files.realRoot());
        }
    }

    private List<ServiceProcess> newProcesses() {
        Map<StackService, CompletableFuture<ServiceImage>> images = new EnumMap<>(StackService.class);
        for (StackService service : StackService.values()) {
            if (includes(service) && !options.isSkipped(service)) {
                images.put(
                        service, async(() -> ServiceImage.prepare(jar(service), files.jarsDir, service.serviceName())));
            }
        }
        awaitAll(images.values().stream()
                .map(image -> image.<Void>thenApply(ignored -> null))
                .toList());
        List<ServiceProcess> processes = new ArrayList<>();
        images.forEach((service, image) -> processes.add(new ServiceProcess(
                service,
                stack.ports.port(StackPort.of(service)),
                image.join(),
                files.serviceLog(service),
                options,
                environment(service))));
        return processes;
    }

    private void describeServicesRunByYou() {
        for (StackService service : StackService.values()) {
            if (includes(service) && options.isSkipped(service)) {
                Path env = files.serviceEnvFile(service);
                EnvFile.write(env, environment(service));
                String shown = DisplayPath.of(env);
                console.say(service + " is yours to run (STACK_SKIP) on port "
                        + stack.ports.port(StackPort.of(service)) + ", with the settings in " + shown + ": set -a; . "
                        + shown + "; set +a; ./mvnw -pl " + service + " spring-boot:run");
            }
        }
    }

    /** The sandbox merchant is created through the gateway, so a gateway you run yourself is waited for. */
    private void awaitGatewayRunByYou() {
        if (!options.isSkipped(StackService.GATEWAY)) {
            return;
        }
        long timeout = options.readyTimeout.toSeconds();
        String url = stack.ports.url(StackPort.GATEWAY) + "/actuator/health/readiness";
        console.say("waiting up to " + timeout + " s for the gateway you run yourself on port "
                + stack.ports.port(StackPort.GATEWAY));
        ServiceProcess.awaitUp(
                url,
                options.readyTimeout,
                stack::isClosed,
                () -> {},
                lastAnswer -> "the gateway you run yourself (STACK_SKIP) was not ready at " + url + " within " + timeout
                        + " s (last answer: " + lastAnswer + "). Start it with the settings the launcher wrote, or "
                        + "allow more time with STACK_READY_TIMEOUT=<seconds>.");
    }

    /**
     * Registers the wallet's receiving key for the sandbox merchant: 201 the first time, 200 on later starts. Anything
     * else is said with the command to retry; the stack runs on, its links without a deposit address.
     */
    private void registerWallet(SandboxWallet wallet) {
        String body = "{\"extended_public_key\":\"" + wallet.extendedPublicKey() + "\"}";
        String problem;
        try {
            HttpResponse<String> response = stack.client().send("PUT", SandboxWallet.RECEIVING_KEY_PATH, body);
            if (response.statusCode() == 200 || response.statusCode() == 201) {
                console.say("sandbox wallet " + wallet.firstAddress() + " "
                        + (response.statusCode() == 201 ? "registered" : "registered again")
                        + " as the receiving key (mnemonic in " + DisplayPath.of(files.sandboxWalletFile) + ")");
                return;
            }
            problem = "HTTP " + response.statusCode() + " " + response.body();
        } catch (UncheckedIOException e) {
            problem = e.getMessage();
        }
        console.say("the sandbox wallet is not registered as the receiving key (" + problem + "); links get no "
                + "deposit address until it is: ./signed-request PUT /payment_links/receiving_key '" + body + "'");
    }

    private void writeStackEnv(SandboxWallet wallet) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("BASE_URL", stack.baseUrl());
        values.put("API_KEY", stack.credentials.apiKey());
        values.put("PRIVATE_KEY", stack.credentials.privateKey());
        values.put("ADMIN_URL", stack.adminUrl());
        values.put("ADMIN_TOKEN", stack.adminToken());
        values.put("PUBLISHABLE_KEY", stack.credentials.publishableKey());
        values.put("SANDBOX_WALLET_ADDRESS", wallet.firstAddress());
        values.put("SANDBOX_WALLET_XPUB", wallet.extendedPublicKey());
        if (stack.chain != null) {
            values.put("DEV_CHAIN_RPC_URL", stack.chain.rpcUrl());
            values.put("DEV_CHAIN_ID", String.valueOf(DevChain.CHAIN_ID));
            values.put("CUSTOMER_ADDRESS", CustomerAccount.ADDRESS);
            values.put("CUSTOMER_PRIVATE_KEY", CustomerAccount.PRIVATE_KEY);
        }
        EnvFile.write(files.stackEnvFile, values);
    }

    private Map<String, String> environment(StackService service) {
        return ServiceEnvironment.of(service, options, stack.ports, stack.secrets, stack.postgres.server());
    }

    private Path jar(StackService service) {
        return options.home.resolve(service.jarPath());
    }
}
