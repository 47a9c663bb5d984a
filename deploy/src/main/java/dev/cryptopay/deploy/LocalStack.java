package dev.cryptopay.deploy;

import dev.cryptopay.auth.Mode;
import dev.cryptopay.auth.keys.SigningKey;
import dev.cryptopay.testsupport.DirectoryTree;
import dev.cryptopay.testsupport.KraftBroker;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.slf4j.LoggerFactory;

/**
 * The local stack: PostgreSQL (the local server or an embedded one), a real KRaft Kafka broker in this JVM, and
 * gateway, payment-links-service, subscriptions-service and webhook-service each as its own {@code java -jar}
 * process, plus a sandbox merchant whose credentials are printed and written to {@code <data dir>/stack.env}.
 *
 * <p>{@code java -jar deploy/target/deploy-0.1.0-SNAPSHOT-exec.jar} (what {@code ./run-local} runs) starts it and stops it
 * on Ctrl-C. Tests use {@link #start(StackOptions)} with {@link StackOptions#forTests()} and the returned handle;
 * see deploy/README.md.
 */
public final class LocalStack implements AutoCloseable {

    /** Topics created up front so the webhook consumer sees them at once rather than on its next metadata refresh. */
    static final List<String> EVENT_TOPICS = List.of("payment-links.events", "subscriptions.events");

    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    private static final String AGENT_MARK = "parent-watch.jar=";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final StackOptions options;
    private final PrintStream out;
    private final Path dataDir;
    private final Path logDir;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<StackService, ServiceProcess> services = new EnumMap<>(StackService.class);
    private final ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "local-stack");
        thread.setDaemon(true);
        return thread;
    });

    private volatile boolean closed;
    private volatile boolean ownsPidFile;
    private volatile StackPostgres postgres;
    private volatile KraftBroker kafka;
    private Map<String, String> secrets;
    private SandboxCredentials credentials;

    private LocalStack(StackOptions options) {
        this.options = options;
        this.out = options.out();
        this.dataDir = options.dataDir();
        this.logDir = dataDir.resolve("logs");
    }

    // ------------------------------------------------------------------------------------------------ entry points

    public static void main(String[] args) {
        StackOptions options;
        boolean reset = false;
        for (String arg : args) {
            switch (arg) {
                case "--help", "-h" -> {
                    System.out.println(usage());
                    return;
                }
                case "--reset" -> reset = true;
                default -> {
                    System.err.println("[stack] unknown argument '" + arg + "'\n" + usage());
                    System.exit(2);
                }
            }
        }
        try {
            options = StackOptions.fromEnvironment();
        } catch (IllegalArgumentException e) {
            System.err.println("[stack] " + e.getMessage());
            System.exit(2);
            return;
        }
        // Logback reads this when the first logger is created: the launcher's own log (Kafka, embedded PostgreSQL).
        System.setProperty("stack.log.dir", options.dataDir().resolve("logs").toString());
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "local-stack-logback.xml");
        }
        LoggerFactory.getILoggerFactory(); // initialise logging once, before Kafka and PostgreSQL start in parallel
        LocalStack stack = new LocalStack(options.copy());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            if (!stack.closed) {
                                stack.out.println();
                                stack.out.println("[stack] stopping…");
                                long begin = System.nanoTime();
                                stack.close();
                                stack.out.printf("[stack] stopped in %.1f s%n", (System.nanoTime() - begin) / 1e9);
                            }
                            stopped.countDown();
                        },
                        "local-stack-shutdown"));
        try {
            if (reset) {
                stack.reset();
            }
            stack.startAll();
        } catch (StackStartException e) {
            if (stack.closed) {
                return; // Ctrl-C during start: the shutdown hook stops what was started
            }
            stack.close();
            System.err.println();
            System.err.println("[stack] " + e.getMessage());
            System.exit(1);
        } catch (RuntimeException | Error e) {
            LoggerFactory.getLogger(LocalStack.class).error("local stack failed to start", e);
            stack.close();
            System.err.println("[stack] the stack could not start: " + e + " (details in "
                    + display(stack.logDir.resolve("launcher.log")) + ")");
            System.exit(1);
        }
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts the whole stack and returns once every service is ready and the sandbox merchant exists.
     *
     * @throws StackStartException with a message for people (port taken, database refused, jar missing, service not
     *                             ready in time...); everything started so far is stopped again
     */
    public static LocalStack start(StackOptions options) {
        LocalStack stack = new LocalStack(options.copy());
        try {
            stack.startAll();
            return stack;
        } catch (RuntimeException | Error e) {
            stack.close();
            throw e;
        }
    }

    private static String usage() {
        return """
                usage: ./run-local [--reset]
                  Starts PostgreSQL (local or embedded), Kafka, gateway, payment-links-service,
                  subscriptions-service and webhook-service, and prints a sandbox API key. Ctrl-C stops it all.
                  --reset   delete .local (secrets, sandbox key, Kafka and embedded PostgreSQL data) and drop the
                            stack's databases on an external PostgreSQL, then start afresh
                  Settings (environment): STACK_DATA_DIR, STACK_POSTGRES=auto|local|embedded, STACK_PG_HOST/PORT/
                  USER/PASSWORD, STACK_EMBEDDED_PG_PORT, STACK_KAFKA_PORT, STACK_GATEWAY_PORT, STACK_ADMIN_PORT,
                  STACK_PAYMENT_LINKS_PORT, STACK_SUBSCRIPTIONS_PORT, STACK_WEBHOOKS_PORT, STACK_JVM_OPTS,
                  STACK_FAST_WEBHOOK_RETRIES=true|false, STACK_READY_TIMEOUT (s), STACK_SKIP=<service>,...
                  (services you run yourself). See deploy/README.md.""";
    }

    // ------------------------------------------------------------------------------------------------------ start

    private void startAll() {
        long begin = System.nanoTime();
        checkJars();
        createDirectories();
        claimDataDir();
        boolean embeddedPostgres = choosePostgres();
        if (embeddedPostgres) {
            StackPostgres.stopOrphan(dataDir.resolve("postgres"), out);
        }
        assignPorts(embeddedPostgres);
        secrets = loadOrCreateSecrets();

        // PostgreSQL and Kafka start side by side. The services need the database at once; Kafka only once they
        // publish or consume, so they start while the broker may still be coming up (its address is fixed already).
        CompletableFuture<KraftBroker> kafkaStart = CompletableFuture.supplyAsync(this::launchKafka, executor);
        try {
            postgres = embeddedPostgres ? startEmbeddedPostgres() : StackPostgres.external(options);
            if (!embeddedPostgres) {
                out.println("[stack] PostgreSQL: the server at " + postgres.host() + ":" + postgres.port() + " (user "
                        + postgres.user() + ")");
            }
            for (StackService service : StackService.values()) {
                postgres.ensureDatabase(databaseName(service));
            }
        } catch (RuntimeException e) {
            try {
                kafka = join(kafkaStart);
            } catch (RuntimeException kafkaFailure) {
                e.addSuppressed(kafkaFailure);
            }
            throw e;
        }

        Path agentJar = writeAgentJar();
        List<CompletableFuture<Void>> ready = new ArrayList<>();
        synchronized (this) {
            abortIfClosed();
            for (StackService service : StackService.values()) {
                if (!options.isSkipped(service)) {
                    services.put(service, newProcess(service, agentJar));
                }
            }
            for (ServiceProcess process : services.values()) {
                ready.add(CompletableFuture.runAsync(() -> launchAndAwait(process, true), executor));
            }
        }
        for (StackService service : StackService.values()) {
            if (options.isSkipped(service)) {
                Path env = dataDir.resolve(service.serviceName() + ".env");
                EnvFile.write(env, serviceEnvironment(service.serviceName()));
                out.println("[stack] " + service + " is yours to run (STACK_SKIP) on port "
                        + ports.get(service.serviceName()) + ", with the settings in " + display(env) + ": set -a; . "
                        + display(env) + "; set +a; ./mvnw -pl " + service + " spring-boot:run");
            }
        }
        kafka = join(kafkaStart);
        createTopics();
        awaitAll(ready);
        if (options.isSkipped(StackService.GATEWAY)) {
            out.println("[stack] waiting up to " + options.readyTimeout().toSeconds() + " s for the gateway you run "
                    + "yourself on port " + ports.get(StackService.GATEWAY.serviceName()));
            ServiceProcess.awaitUp(
                    serviceUrl(StackService.GATEWAY.serviceName()) + "/actuator/health/readiness",
                    options.readyTimeout(),
                    () -> closed,
                    "the gateway you run yourself (STACK_SKIP)");
        }
        credentials = ensureSandboxMerchant();
        writeStackEnv();
        watchForCrashes();
        printSummary((System.nanoTime() - begin) / 1e9);
    }

    private void checkJars() {
        List<String> missing = new ArrayList<>();
        for (StackService service : StackService.values()) {
            if (!options.isSkipped(service) && !Files.isRegularFile(jar(service))) {
                missing.add(display(jar(service)));
            }
        }
        if (!missing.isEmpty()) {
            throw new StackStartException("Service jar" + (missing.size() > 1 ? "s" : "") + " not found: "
                    + String.join(", ", missing) + ". Build them first: run ./mvnw -DskipTests install in "
                    + display(options.home()) + " (./run-local does this for you).");
        }
    }

    private void createDirectories() {
        try {
            Files.createDirectories(logDir);
        } catch (IOException e) {
            throw new StackStartException("Cannot create the data directory " + display(dataDir) + ": " + e
                    + ". Set STACK_DATA_DIR to a writable directory.");
        }
    }

    /**
     * One launcher per data directory: two would share Kafka's and PostgreSQL's files. {@code launcher.pid} also
     * lets {@code ./run-local} refuse to rebuild the jars under a running stack (its JVMs read classes from them).
     */
    private void claimDataDir() {
        Path pidFile = dataDir.resolve("launcher.pid");
        long me = ProcessHandle.current().pid();
        Optional<Long> other = runningLauncher(pidFile).filter(pid -> pid != me);
        if (other.isPresent()) {
            throw new StackStartException("A local stack already runs on " + display(dataDir)
                    + " (launcher pid " + other.get() + "). Use it, or stop it first (Ctrl-C in its terminal, or "
                    + "kill " + other.get() + "); a second stack needs its own STACK_DATA_DIR and ports.");
        }
        try {
            Files.writeString(pidFile, me + "\n");
            ownsPidFile = true;
        } catch (IOException e) {
            throw new StackStartException("Cannot write " + display(pidFile) + ": " + e.getMessage()
                    + ". Set STACK_DATA_DIR to a writable directory.");
        }
    }

    /** The pid in the file when that process is alive. */
    private static Optional<Long> runningLauncher(Path pidFile) {
        try {
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(ProcessHandle::pid);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** True when the stack must run its own PostgreSQL. */
    private boolean choosePostgres() {
        switch (options.postgresMode()) {
            case EMBEDDED:
                return true;
            case LOCAL:
                if (!Ports.accepts(options.pgHost(), options.pgPort(), 1000)) {
                    throw new StackStartException("No PostgreSQL answers at " + options.pgHost() + ":"
                            + options.pgPort() + " (STACK_POSTGRES=local). Start it, point STACK_PG_HOST/STACK_PG_PORT "
                            + "at a running server, or drop STACK_POSTGRES to let the stack start an embedded one.");
                }
                return false;
            default:
                return !Ports.accepts(options.pgHost(), options.pgPort(), 1000);
        }
    }

    /** Free ports for 0s; for fixed ports, one clear message naming every port that is taken and by what. */
    private void assignPorts(boolean embeddedPostgres) {
        List<String> taken = new ArrayList<>();
        List<Integer> takenPorts = new ArrayList<>();
        java.util.Set<Long> launchers = new java.util.HashSet<>();
        boolean allByStacks = true;
        for (Map.Entry<String, Integer> entry : options.ports().entrySet()) {
            String what = entry.getKey();
            if (what.equals(StackOptions.EMBEDDED_POSTGRES) && !embeddedPostgres) {
                continue;
            }
            int port = entry.getValue();
            if (port == 0) {
                int free;
                do {
                    free = Ports.freePort();
                } while (ports.containsValue(free));
                ports.put(what, free);
                continue;
            }
            if (isSkippedService(what)) {
                ports.put(what, port); // you run it there yourself, maybe already
                continue;
            }
            if (!Ports.isFree(port) && !awaitOrphanedService(port)) {
                Optional<Ports.Holder> holder = Ports.holder(port);
                Optional<Long> launcher = holder.flatMap(LocalStack::launcherOf);
                launcher.ifPresent(launchers::add);
                allByStacks &= launcher.isPresent();
                taken.add("port " + port + " (" + what + ", " + portVariable(what) + ") is taken by "
                        + holder.map(LocalStack::describe)
                                .orElse("another process (see `ss -ltnp 'sport = :" + port + "'` or `lsof -i :" + port
                                        + "`)"));
                takenPorts.add(port);
            }
            ports.put(what, port);
        }
        if (taken.isEmpty()) {
            return;
        }
        if (allByStacks && launchers.size() == 1) {
            long launcher = launchers.iterator().next();
            throw new StackStartException("A local stack is already running (launcher pid " + launcher + ") and "
                    + "holds port" + (takenPorts.size() > 1 ? "s " : " ") + joinPorts(takenPorts) + ". Use that one, "
                    + "stop it (Ctrl-C in its terminal, or kill " + launcher + "), or run a second stack on other "
                    + "ports and another data directory (STACK_DATA_DIR, STACK_GATEWAY_PORT, STACK_ADMIN_PORT, "
                    + "STACK_PAYMENT_LINKS_PORT, STACK_SUBSCRIPTIONS_PORT, STACK_WEBHOOKS_PORT, STACK_KAFKA_PORT, "
                    + "STACK_EMBEDDED_PG_PORT).");
        }
        throw new StackStartException((taken.size() == 1
                        ? "A port the stack needs is already in use: "
                        : "Ports the stack needs are already in use: ")
                + String.join("; ", taken)
                + ". Stop what holds " + (taken.size() == 1 ? "it" : "them") + " (kill <pid>, or Ctrl-C in its "
                + "terminal), or give the stack other ports with the variables named above.");
    }

    private boolean isSkippedService(String what) {
        for (StackService service : StackService.values()) {
            if (service.serviceName().equals(what)) {
                return options.isSkipped(service);
            }
        }
        return what.equals(StackOptions.ADMIN) && options.isSkipped(StackService.GATEWAY);
    }

    private static String joinPorts(List<Integer> ports) {
        return ports.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "));
    }

    private static String portVariable(String what) {
        return switch (what) {
            case "gateway" -> "STACK_GATEWAY_PORT";
            case StackOptions.ADMIN -> "STACK_ADMIN_PORT";
            case "payment-links-service" -> "STACK_PAYMENT_LINKS_PORT";
            case "subscriptions-service" -> "STACK_SUBSCRIPTIONS_PORT";
            case "webhook-service" -> "STACK_WEBHOOKS_PORT";
            case StackOptions.KAFKA -> "STACK_KAFKA_PORT";
            default -> "STACK_EMBEDDED_PG_PORT";
        };
    }

    /** The launcher a process belongs to: its parent-watch agent's argument, or itself if it is a launcher. */
    private static Optional<Long> launcherOf(Ports.Holder holder) {
        String command = holder.commandLine();
        int at = command.indexOf(AGENT_MARK);
        if (at >= 0) {
            int start = at + AGENT_MARK.length();
            int end = command.indexOf(' ', start);
            try {
                return Optional.of(Long.parseLong(end < 0 ? command.substring(start) : command.substring(start, end)));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        if (command.contains("deploy-" + StackService.VERSION) || command.contains(LocalStack.class.getName())) {
            return Optional.of(holder.pid());
        }
        return Optional.empty();
    }

    /** "pid 123 (java … -jar gateway-0.1.0-SNAPSHOT.jar)": short enough to read, with what identifies it. */
    private static String describe(Ports.Holder holder) {
        String command = holder.commandLine();
        String[] words = command.split(" ");
        String program = Path.of(words[0]).getFileName().toString();
        int jar = command.indexOf(" -jar ");
        String shown;
        if (jar >= 0) {
            String jarPath = command.substring(jar + 6).split(" ")[0];
            shown = program + " … -jar " + jarPath;
        } else {
            shown = abbreviate(command, 110);
        }
        return "pid " + holder.pid() + " (" + shown + ")";
    }

    /**
     * A service of a launcher that was killed exits by itself within seconds (its parent-watch agent notices);
     * wait for that rather than fail. True when the port became free.
     */
    private boolean awaitOrphanedService(int port) {
        Optional<Ports.Holder> holder = Ports.holder(port);
        Optional<Long> launcher =
                holder.filter(h -> h.commandLine().contains(AGENT_MARK)).flatMap(LocalStack::launcherOf);
        if (launcher.isEmpty()
                || ProcessHandle.of(launcher.get()).map(ProcessHandle::isAlive).orElse(false)) {
            return false; // not a stack service, or its launcher is alive: a stack that really runs
        }
        out.println("[stack] port " + port + " is held by a service of a launcher that is gone (pid "
                + holder.get().pid() + "); waiting for it to exit");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (Ports.isFree(port)) {
                return true;
            }
            sleep(250);
        }
        return false;
    }

    private Map<String, String> loadOrCreateSecrets() {
        Path file = dataDir.resolve("secrets.env");
        Map<String, String> values = EnvFile.read(file);
        boolean changed = false;
        changed |= values.putIfAbsent("INTERNAL_AUTH_SECRET", randomBase64Url(48)) == null;
        changed |= values.putIfAbsent("GATEWAY_ADMIN_TOKEN", randomBase64Url(32)) == null;
        changed |= values.putIfAbsent(
                        "WEBHOOK_SECRET_ENCRYPTION_KEY", Base64.getEncoder().encodeToString(randomBytes(32)))
                == null;
        if (changed) {
            EnvFile.write(file, values);
        }
        return Map.copyOf(values);
    }

    private KraftBroker launchKafka() {
        long begin = System.nanoTime();
        int port = ports.get(StackOptions.KAFKA);
        Path kafkaDir = dataDir.resolve("kafka");
        try {
            KraftBroker broker = KraftBroker.start(kafkaDir, port);
            out.printf(
                    "[stack] Kafka ready at %s in %.1f s (data in %s)%n",
                    broker.bootstrapServers(), (System.nanoTime() - begin) / 1e9, display(kafkaDir));
            return broker;
        } catch (RuntimeException e) {
            throw new StackStartException(
                    "Kafka did not start on 127.0.0.1:" + port + " with its data in "
                            + display(kafkaDir) + ": " + StackPostgres.rootMessage(e)
                            + ". If the port was taken meanwhile, "
                            + "free it or set STACK_KAFKA_PORT; if the data is damaged, delete " + display(kafkaDir)
                            + " (stored events are lost). Details in " + display(logDir.resolve("launcher.log")) + ".",
                    e);
        }
    }

    private StackPostgres startEmbeddedPostgres() {
        long begin = System.nanoTime();
        Path pgDir = dataDir.resolve("postgres");
        boolean first = !Files.exists(pgDir.resolve("postgresql.conf"));
        StackPostgres server = StackPostgres.embedded(
                pgDir, ports.get(StackOptions.EMBEDDED_POSTGRES), logDir.resolve("postgres.log"), out);
        out.printf(
                "[stack] PostgreSQL: embedded, ready at 127.0.0.1:%d in %.1f s%s (data in %s)%n",
                server.port(), (System.nanoTime() - begin) / 1e9, first ? ", first start" : "", display(pgDir));
        return server;
    }

    private void createTopics() {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                30_000))) {
            var existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = EVENT_TOPICS.stream()
                    .filter(t -> !existing.contains(t))
                    .map(t -> new NewTopic(t, 3, (short) 1))
                    .toList();
            if (!missing.isEmpty()) {
                admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                throw new StackStartException(
                        "Kafka at " + kafka.bootstrapServers() + " did not create the event "
                                + "topics: " + StackPostgres.rootMessage(e) + ". Details in "
                                + display(logDir.resolve("launcher.log")) + ".",
                        e);
            }
        }
    }

    private ServiceProcess newProcess(StackService service, Path agentJar) {
        return new ServiceProcess(
                service,
                ports.get(service.serviceName()),
                snapshotJar(service),
                logDir.resolve(service.serviceName() + ".log"),
                dataDir,
                options.jvmOptions(),
                agentJar,
                environment(service));
    }

    /** The environment of one service: its port, database, Kafka, shared secrets and the sandbox settings. */
    private Map<String, String> environment(StackService service) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PORT", String.valueOf(ports.get(service.serviceName())));
        env.put("INTERNAL_AUTH_SECRET", secrets.get("INTERNAL_AUTH_SECRET"));
        env.put("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + ports.get(StackOptions.KAFKA));
        String database = databaseName(service);
        switch (service) {
            case GATEWAY -> {
                env.put("GATEWAY_DB_R2DBC_URL", postgres.r2dbcUrl(database));
                env.put("GATEWAY_DB_JDBC_URL", postgres.jdbcUrl(database));
                env.put("GATEWAY_DB_USER", postgres.user());
                env.put("GATEWAY_DB_PASSWORD", postgres.password());
                env.put("GATEWAY_ADMIN_PORT", String.valueOf(ports.get(StackOptions.ADMIN)));
                env.put("GATEWAY_ADMIN_TOKEN", secrets.get("GATEWAY_ADMIN_TOKEN"));
                env.put("PAYMENT_LINKS_URL", serviceUrl(StackService.PAYMENT_LINKS.serviceName()));
                env.put("SUBSCRIPTIONS_URL", serviceUrl(StackService.SUBSCRIPTIONS.serviceName()));
                env.put("WEBHOOKS_URL", serviceUrl(StackService.WEBHOOKS.serviceName()));
            }
            default -> {
                env.put("DATABASE_R2DBC_URL", postgres.r2dbcUrl(database));
                env.put("DATABASE_JDBC_URL", postgres.jdbcUrl(database));
                env.put("DATABASE_USER", postgres.user());
                env.put("DATABASE_PASSWORD", postgres.password());
            }
        }
        if (service == StackService.WEBHOOKS) {
            env.put("WEBHOOK_SECRET_ENCRYPTION_KEY", secrets.get("WEBHOOK_SECRET_ENCRYPTION_KEY"));
            // Local sandbox only: deliver to http://127.0.0.1:... endpoints (production default stays false).
            env.put("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", "true");
            if (options.fastWebhookRetries()) {
                env.put("WEBHOOKS_DELIVERY_RETRYSCHEDULE", StackOptions.FAST_WEBHOOK_RETRY_SCHEDULE);
            }
        }
        env.putAll(options.serviceEnvironment(service.serviceName()));
        return env;
    }

    private void launchAndAwait(ServiceProcess process, boolean freshLog) {
        synchronized (this) {
            abortIfClosed();
            process.start(freshLog);
        }
        double seconds = process.awaitReady(options.readyTimeout(), () -> closed);
        out.printf("[stack] %s ready in %.1f s (port %d)%n", process.service(), seconds, process.port());
    }

    /**
     * The environment the launcher gives a service (port, database, Kafka, secrets, sandbox settings): what a test
     * or a developer needs to run that service by hand next to the stack.
     */
    public Map<String, String> serviceEnvironment(String service) {
        return Map.copyOf(environment(StackService.byName(service)));
    }

    private void watchForCrashes() {
        for (ServiceProcess process : services.values()) {
            watchForCrash(process);
        }
    }

    private void watchForCrash(ServiceProcess process) {
        Process running = process.process();
        if (running == null) {
            return;
        }
        // Ctrl-C in a terminal signals the services too, so they may exit a moment before the launcher's shutdown
        // hook marks the stack closed: look again a second later before calling an exit unexpected.
        running.onExit()
                .thenAcceptAsync(
                        p -> {
                            if (closed || process.stopRequested() || process.process() != running) {
                                return;
                            }
                            int code = p.exitValue();
                            if (code == 130 || code == 143) {
                                out.println("[stack] " + process.service()
                                        + " was stopped by a signal from outside the launcher " + "(exit code " + code
                                        + "); the rest keeps running");
                            } else {
                                out.println("[stack] " + process.service() + " exited unexpectedly with code " + code
                                        + "; its log " + "is " + display(process.logFile())
                                        + tail(process.logFile(), 20).stripTrailing());
                            }
                        },
                        CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS));
    }

    // ------------------------------------------------------------------------------------------ sandbox merchant

    private SandboxCredentials ensureSandboxMerchant() {
        Path file = dataDir.resolve("sandbox.env");
        Path pem = dataDir.resolve("sandbox-key.pem");
        AdminClient admin = new AdminClient(adminUrl(), adminToken());
        Map<String, String> saved = EnvFile.read(file);
        SandboxCredentials result;
        if (saved.containsKey("MERCHANT_ID") && saved.containsKey("API_KEY") && saved.containsKey("PRIVATE_KEY")) {
            SandboxCredentials previous = new SandboxCredentials(
                    saved.get("MERCHANT_ID"), saved.get("API_KEY"), saved.get("PRIVATE_KEY"), null, pem, Mode.TEST);
            HttpResponse<String> account = new SignedClient(baseUrl(), previous).get("/account");
            if (account.statusCode() == 200) {
                out.println("[stack] sandbox merchant " + previous.merchantId() + " reused");
                if (!Files.exists(pem)) {
                    EnvFile.writePrivate(
                            pem, SigningKey.parse(previous.privateKey()).toPem());
                }
                return previous;
            }
            if (account.statusCode() != 401) {
                throw new StackStartException("The gateway answered GET /api/v1/account with HTTP "
                        + account.statusCode() + " for the saved sandbox key: " + account.body() + ". See "
                        + display(logDir.resolve("gateway.log")) + ".");
            }
            if (admin.merchantExists(previous.merchantId())) {
                out.println("[stack] the saved sandbox key is no longer accepted; creating a new test key for "
                        + "merchant " + previous.merchantId());
                result = admin.createKey(previous.merchantId(), Mode.TEST);
            } else {
                out.println("[stack] the saved sandbox merchant is not in the database (was it reset?); creating "
                        + "a new one");
                result = admin.createKey(admin.createMerchant("Local sandbox", "sandbox@example.com"), Mode.TEST);
            }
        } else {
            result = admin.createKey(admin.createMerchant("Local sandbox", "sandbox@example.com"), Mode.TEST);
            out.println("[stack] sandbox merchant " + result.merchantId() + " created");
        }
        EnvFile.writePrivate(pem, result.privateKeyPem());
        Map<String, String> values = new LinkedHashMap<>();
        values.put("MERCHANT_ID", result.merchantId());
        values.put("API_KEY", result.apiKey());
        values.put("PRIVATE_KEY", result.privateKey());
        EnvFile.write(file, values);
        return new SandboxCredentials(
                result.merchantId(), result.apiKey(), result.privateKey(), result.privateKeyPem(), pem, Mode.TEST);
    }

    private void writeStackEnv() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("BASE_URL", baseUrl());
        values.put("API_KEY", credentials.apiKey());
        values.put("PRIVATE_KEY", credentials.privateKey());
        values.put("ADMIN_URL", adminUrl());
        values.put("ADMIN_TOKEN", adminToken());
        EnvFile.write(stackEnvFile(), values);
    }

    private void printSummary(double seconds) {
        out.printf("[stack] all services ready in %.1f s%n", seconds);
        out.println();
        out.println("  Base URL     " + baseUrl());
        out.println("  API key      " + credentials.apiKey());
        out.println("  Private key  " + credentials.privateKey());
        out.println("               (PEM: " + display(credentials.pemFile()) + ")");
        out.println("  Admin API    " + adminUrl() + "   Bearer " + adminToken());
        out.println("  Kafka        " + kafkaBootstrapServers() + "   PostgreSQL " + postgres.host() + ":"
                + postgres.port() + (postgres.isEmbedded() ? " (embedded)" : ""));
        out.println("  Logs         " + display(logDir) + "/<service>.log");
        out.println();
        out.println("  The API key says who you are (X-API-Key); the private key signs every request");
        out.println(
                "  (X-API-Signature) and never leaves your machine. All of it is in " + display(stackEnvFile()) + ".");
        out.println("  Try:  ./signed-request GET /account");
        out.println();
        out.println("[stack] running; Ctrl-C stops everything");
    }

    // --------------------------------------------------------------------------------------------- handle: info

    /** The options this stack runs with (its own copy). */
    StackOptions options() {
        return options;
    }

    /** {@code http://127.0.0.1:<gateway port>/api/v1}: the merchant base URL. */
    public String baseUrl() {
        return "http://127.0.0.1:" + ports.get(StackService.GATEWAY.serviceName()) + "/api/v1";
    }

    /** {@code http://127.0.0.1:<admin port>}: the gateway's admin API (Bearer {@link #adminToken()}). */
    public String adminUrl() {
        return "http://127.0.0.1:" + ports.get(StackOptions.ADMIN);
    }

    public String adminToken() {
        return secrets.get("GATEWAY_ADMIN_TOKEN");
    }

    /** The secret the gateway signs {@code X-Internal-Auth} with (to call a service directly in a test). */
    public String internalAuthSecret() {
        return secrets.get("INTERNAL_AUTH_SECRET");
    }

    /** The sandbox merchant's test-mode credentials. */
    public SandboxCredentials credentials() {
        return credentials;
    }

    /** A client signing as the sandbox merchant. */
    public SignedClient client() {
        return new SignedClient(baseUrl(), credentials);
    }

    /** A new merchant with a gateway-generated Ed25519 key of the given mode, through the admin API. */
    public SandboxCredentials newMerchant(String name, Mode mode) {
        AdminClient admin = new AdminClient(adminUrl(), adminToken());
        return admin.createKey(
                admin.createMerchant(name, "merchant-" + Long.toHexString(RANDOM.nextLong()) + "@example.com"), mode);
    }

    /** {@code http://127.0.0.1:<port>} of a service ({@code gateway}, {@code payment-links-service}, ...). */
    public String serviceUrl(String service) {
        return "http://127.0.0.1:" + servicePort(service);
    }

    public int servicePort(String service) {
        return ports.get(StackService.byName(service).serviceName());
    }

    public String kafkaBootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** JDBC URL of a service's database (user {@link #databaseUser()}, password {@link #databasePassword()}). */
    public String jdbcUrl(String service) {
        return postgres.jdbcUrl(databaseName(StackService.byName(service)));
    }

    public String databaseUser() {
        return postgres.user();
    }

    public String databasePassword() {
        return postgres.password();
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path logFile(String service) {
        return logDir.resolve(StackService.byName(service).serviceName() + ".log");
    }

    /** {@code <data dir>/stack.env}: BASE_URL, API_KEY, PRIVATE_KEY, ADMIN_URL, ADMIN_TOKEN. */
    public Path stackEnvFile() {
        return dataDir.resolve("stack.env");
    }

    // ------------------------------------------------------------------------------------------ handle: control

    /** Whether the service's process is alive. */
    public boolean isRunning(String service) {
        return process(service).isRunning();
    }

    /** Stops a service gracefully (SIGTERM; SIGKILL after 20 s). Its port stays reserved for {@link #startService}. */
    public void stopService(String service) {
        process(service).stop(STOP_GRACE);
    }

    /** Kills a service at once (SIGKILL, {@code destroyForcibly}), like a crash. */
    public void killService(String service) {
        process(service).kill();
    }

    /** Starts a stopped or killed service again on the same port and waits until it is ready. */
    public void startService(String service) {
        ServiceProcess process = process(service);
        launchAndAwait(process, false);
        watchForCrash(process);
    }

    /** Stops the Kafka broker cleanly (data kept); clients see connection failures until {@link #startKafka()}. */
    public void stopKafka() {
        kafka.stop();
    }

    /** Brings Kafka back at the same address with its data. */
    public void startKafka() {
        kafka.restart();
    }

    private ServiceProcess process(String service) {
        ServiceProcess process = services.get(StackService.byName(service));
        if (process == null) {
            throw new IllegalStateException("the stack has not started " + service
                    + (options.isSkipped(StackService.byName(service)) ? " (skipped: you run it yourself)" : ""));
        }
        return process;
    }

    // ------------------------------------------------------------------------------------------------- stopping

    /**
     * Stops everything: the services (SIGTERM, all at once, SIGKILL after 20 s), then Kafka, then the embedded
     * PostgreSQL. Drops the databases / deletes the data directory when the options say so. Safe to call twice.
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
        List<CompletableFuture<Void>> stopping = new ArrayList<>();
        for (ServiceProcess process : started) {
            stopping.add(CompletableFuture.runAsync(() -> process.stop(STOP_GRACE), executor));
        }
        stopping.forEach(f -> {
            try {
                f.join();
            } catch (RuntimeException e) {
                System.err.println("[stack] " + e.getMessage());
            }
        });
        if (kafka != null) {
            try {
                kafka.close();
            } catch (RuntimeException e) {
                System.err.println("[stack] Kafka did not stop cleanly: " + e.getMessage());
            }
        }
        if (postgres != null) {
            if (options.dropDatabasesOnClose()) {
                for (StackService service : StackService.values()) {
                    try {
                        postgres.dropDatabase(databaseName(service));
                    } catch (RuntimeException e) {
                        System.err.println("[stack] " + e.getMessage());
                    }
                }
            }
            postgres.close();
        }
        executor.shutdownNow();
        if (ownsPidFile) {
            try {
                Files.deleteIfExists(dataDir.resolve("launcher.pid"));
            } catch (IOException e) {
                System.err.println("[stack] could not delete " + dataDir.resolve("launcher.pid") + ": " + e);
            }
        }
        if (options.deleteDataDirOnClose()) {
            deleteRecursively(dataDir);
        }
    }

    /** {@code --reset}: remove the data directory and (on an external server) the stack's databases. */
    private void reset() {
        Optional<Long> running = runningLauncher(dataDir.resolve("launcher.pid"));
        if (running.isPresent()) {
            throw new StackStartException("--reset refused: a local stack runs on " + display(dataDir)
                    + " (launcher pid " + running.get() + "). Stop it first (Ctrl-C in its terminal).");
        }
        int gatewayPort = options.port(StackService.GATEWAY.serviceName());
        if (gatewayPort != 0 && !Ports.isFree(gatewayPort)) {
            throw new StackStartException("--reset refused: port " + gatewayPort + " is in use, so a stack may be "
                    + "running on this data. Stop it first (Ctrl-C in its terminal).");
        }
        if (!choosePostgres()) {
            StackPostgres external = StackPostgres.external(options);
            for (StackService service : StackService.values()) {
                external.dropDatabase(databaseName(service));
                out.println("[stack] dropped database " + databaseName(service) + " on " + external.origin());
            }
        }
        StackPostgres.stopOrphan(dataDir.resolve("postgres"), out);
        deleteRecursively(dataDir);
        out.println("[stack] deleted " + display(dataDir));
    }

    // -------------------------------------------------------------------------------------------------- helpers

    private String databaseName(StackService service) {
        return options.databasePrefix() + service.database();
    }

    private Path jar(StackService service) {
        return options.home().resolve(service.jarPath());
    }

    private Path writeAgentJar() {
        return writeAgentJar(dataDir);
    }

    /**
     * The service runs from {@code <data dir>/jars/<jar name>}, a hard link to (or, across file systems, a copy of)
     * the built jar taken at start. A Spring Boot jar's classes are read lazily by path, and a rebuild writes a new
     * file at the old path; the link keeps the running stack (and {@link #startService} within it) on the build it
     * started with.
     */
    private Path snapshotJar(StackService service) {
        Path source = jar(service);
        Path target = dataDir.resolve("jars").resolve(source.getFileName());
        try {
            Files.createDirectories(target.getParent());
            Path temp = target.resolveSibling("." + source.getFileName() + "." + System.nanoTime());
            try {
                Files.createLink(temp, source);
            } catch (IOException | UnsupportedOperationException e) {
                Files.copy(source, temp);
            }
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new StackStartException("Cannot link or copy " + display(source) + " into " + display(target) + ": "
                    + e.getMessage() + ". Set STACK_DATA_DIR to a writable directory.");
        }
    }

    /** Writes the parent-watch agent (one class, see {@link ParentWatch}) as {@code <dir>/parent-watch.jar}. */
    static Path writeAgentJar(Path dir) {
        Path jar = dir.resolve("parent-watch.jar");
        String entry = ParentWatch.class.getName().replace('.', '/') + ".class";
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(new Attributes.Name("Premain-Class"), ParentWatch.class.getName());
        try (InputStream classBytes = ParentWatch.class.getClassLoader().getResourceAsStream(entry)) {
            if (classBytes == null) {
                throw new IllegalStateException(entry + " not found on the class path");
            }
            Path temp = Files.createTempFile(dir, ".parent-watch", ".jar");
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(temp), manifest)) {
                out.putNextEntry(new JarEntry(entry));
                classBytes.transferTo(out);
                out.closeEntry();
            }
            Files.move(temp, jar, StandardCopyOption.REPLACE_EXISTING);
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + jar, e);
        }
    }

    private void abortIfClosed() {
        if (closed) {
            throw new StackStartException("start abandoned: the stack is stopping");
        }
    }

    /** Waits until every future succeeded, or until the first one fails (its exception comes out as is). */
    private static void awaitAll(List<CompletableFuture<Void>> futures) {
        CompletableFuture<Void> outcome = new CompletableFuture<>();
        for (CompletableFuture<Void> future : futures) {
            future.whenComplete((ignored, failure) -> {
                if (failure != null) {
                    outcome.completeExceptionally(
                            failure instanceof CompletionException && failure.getCause() != null
                                    ? failure.getCause()
                                    : failure);
                }
            });
        }
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).whenComplete((ignored, failure) -> {
            if (failure == null) {
                outcome.complete(null);
            }
        });
        join(outcome);
    }

    /** Waits for a start step; a step's {@link StackStartException} comes out as is. */
    private static <T> T join(CompletableFuture<T> future) {
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

    /** A path as the user would type it: relative to the working directory when under it. */
    static String display(Path path) {
        if (path == null) {
            return "?";
        }
        Path cwd = Path.of("").toAbsolutePath();
        Path absolute = path.toAbsolutePath().normalize();
        if (absolute.startsWith(cwd) && !absolute.equals(cwd)) {
            return cwd.relativize(absolute).toString();
        }
        return absolute.toString();
    }

    /** "; its last N lines:\n    ...\n" (ready to go after a sentence naming the log), or ". " when it is empty. */
    static String tail(Path logFile, int lines) {
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
        StringBuilder text =
                new StringBuilder("; its last ").append(last.size()).append(" lines:\n");
        last.forEach(line -> text.append("    ").append(line).append('\n'));
        return text.toString();
    }

    private static String abbreviate(String text, int max) {
        return text.length() > max ? text.substring(0, max) + "…" : text;
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static String randomBase64Url(int bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes(bytes));
    }

    private static void deleteRecursively(Path dir) {
        try {
            DirectoryTree.delete(dir);
        } catch (IOException e) {
            System.err.println("[stack] could not delete " + dir + ": " + e.getMessage());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
