package dev.cryptopay.deploy;

import dev.cryptopay.deploy.chain.DevChainTools;
import dev.cryptopay.deploy.datadir.StackLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link LocalStack#start(StackOptions)} starts and where. A mutable, fluent holder: {@code start} takes a copy.
 *
 * <p>{@link #fromEnvironment()} is what {@code ./run-local} uses (fixed ports, data in {@code <repo>/.local},
 * {@code STACK_*} environment variables applied); {@link #forTests()} picks free ports, a temporary data directory
 * and uniquely named databases that are dropped on close, so several stacks can run side by side.
 */
public final class StackOptions implements Cloneable {

    /**
     * The service JVMs' flags: the serial collector (a small heap, one core's worth of services each) and the JIT
     * left whole, so that a service runs at full speed once warm. Start-up is helped by class-data sharing instead
     * ({@link #classDataSharing(boolean)}); deploy/README.md gives the start times of each choice. The heap starts at
     * 128 MB instead of the JVM's default (1/64 of the machine's memory, here the whole 256 MB): the young generation
     * is sized from it and an idle service's allocations cycle through all of it, so it is what an idle service keeps
     * resident (docs/performance.md, "Start-up").
     */
    public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-Xms128m", "-Xmx256m");

    /**
     * Flags that start the suite faster and run it slower: C1 only ({@code -XX:TieredStopAtLevel=1}). What {@link
     * #forTests()} uses: tests start many stacks and measure no throughput.
     */
    public static final List<String> QUICK_START_JVM_OPTIONS =
            List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xms128m", "-Xmx256m");

    /** The sandbox retry schedule of {@code STACK_FAST_WEBHOOK_RETRIES=true} (production: 0s,5m,30m,2h,24h). */
    public static final String FAST_WEBHOOK_RETRY_SCHEDULE = "0s,5s,15s,30s,60s";

    private Path home;
    private Path dataDir;
    private Map<StackPort, Integer> ports = new EnumMap<>(StackPort.class);
    private PostgresTarget postgres = PostgresTarget.defaults();
    private boolean dropDatabasesOnClose;
    private boolean deleteDataDirOnClose;
    private List<String> jvmOptions = DEFAULT_JVM_OPTIONS;
    private boolean classDataSharing = true;
    private boolean fastWebhookRetries = true;
    private Duration readyTimeout = Duration.ofSeconds(180);
    private boolean devChain = true;
    private DevChainTools devChainTools = DevChainTools.onPath();
    private Map<StackService, Map<String, String>> serviceEnvironment = new EnumMap<>(StackService.class);
    private EnumSet<StackService> skipped = EnumSet.noneOf(StackService.class);
    private PrintStream out = System.out;

    private StackOptions() {
        home = RepositoryRoot.find(Path.of("").toAbsolutePath());
        dataDir = home.resolve(".local");
        for (StackPort port : StackPort.values()) {
            ports.put(port, port.defaultPort());
        }
    }

    /** Fixed default ports and {@code <repo>/.local}, without looking at the environment. */
    public static StackOptions defaults() {
        return new StackOptions();
    }

    /**
     * The defaults with the {@code STACK_*} environment variables applied ({@link StackEnvironmentVariables}; the
     * "Settings" table of deploy/README.md lists them).
     *
     * @throws IllegalArgumentException naming the variable when a value is not valid
     */
    public static StackOptions fromEnvironment() {
        return defaults().applyEnvironment(System.getenv());
    }

    /**
     * For tests: free ports, a new temporary data directory deleted on close, PostgreSQL as {@code STACK_POSTGRES}
     * says (default: the local server when it answers, else embedded) with the temporary directory's databases
     * ({@link #databaseName}) dropped on close, a ready timeout of 4 minutes, no dev chain (a test that
     * pays on chain asks for it with {@link #devChain(boolean)}), {@link #QUICK_START_JVM_OPTIONS} and no class-data
     * archives (recorded as a service exits, they would slow down every test's close for no later start).
     */
    public static StackOptions forTests() {
        Path temp;
        try {
            temp = Files.createTempDirectory("local-stack-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary data directory", e);
        }
        return defaults()
                .jvmOptions(QUICK_START_JVM_OPTIONS)
                .classDataSharing(false)
                .applyEnvironment(StackEnvironmentVariables.postgresAndJvmOnly(System.getenv()))
                .dataDir(temp)
                .randomPorts()
                .dropDatabasesOnClose(true)
                .deleteDataDirOnClose(true)
                .devChain(false)
                .readyTimeout(Duration.ofMinutes(4));
    }

    StackOptions applyEnvironment(Map<String, String> env) {
        return StackEnvironmentVariables.apply(this, env);
    }

    /** The repository whose {@code <module>/target/<module>-<version>.jar} files are started. */
    public StackOptions home(Path home) {
        this.home = home.toAbsolutePath();
        return this;
    }

    /** Where secrets, credentials, logs, Kafka and embedded PostgreSQL data live (default {@code <home>/.local}). */
    public StackOptions dataDir(Path dataDir) {
        this.dataDir = dataDir.toAbsolutePath();
        return this;
    }

    /** Every port (services, admin API, Kafka, embedded PostgreSQL, dev chain) chosen free at start, kept until close. */
    public StackOptions randomPorts() {
        ports.replaceAll((what, port) -> 0);
        return this;
    }

    /** Port of a service ({@link StackService#serviceName()}); 0 = a free port. */
    public StackOptions servicePort(String service, int port) {
        return port(StackPort.of(StackService.byName(service)), port);
    }

    /** Port of a service, the admin API, Kafka, the embedded PostgreSQL or the dev chain; 0 = a free port. */
    public StackOptions port(StackPort what, int port) {
        ports.put(what, checkPort(port));
        return this;
    }

    public StackOptions postgresMode(PostgresMode mode) {
        postgres = postgres.withMode(mode);
        return this;
    }

    public StackOptions pgHost(String host) {
        postgres = postgres.withServer(host, postgres.port());
        return this;
    }

    public StackOptions pgPort(int port) {
        postgres = postgres.withServer(postgres.host(), checkPort(port));
        return this;
    }

    public StackOptions pgUser(String user) {
        postgres = postgres.withLogin(user, postgres.password());
        return this;
    }

    public StackOptions pgPassword(String password) {
        postgres = postgres.withLogin(postgres.user(), password);
        return this;
    }

    /** Drop the stack's databases on {@link LocalStack#close()} (tests; never the default). */
    public StackOptions dropDatabasesOnClose(boolean drop) {
        this.dropDatabasesOnClose = drop;
        return this;
    }

    /** Delete the data directory on {@link LocalStack#close()} ({@link #forTests()} sets it). */
    public StackOptions deleteDataDirOnClose(boolean delete) {
        this.deleteDataDirOnClose = delete;
        return this;
    }

    public StackOptions jvmOptions(List<String> options) {
        this.jvmOptions = List.copyOf(options);
        return this;
    }

    /**
     * Record each service's class-data archive on its first run of a build and start later runs from it ({@code
     * STACK_CLASS_DATA_SHARING=false}: never); see {@code ServiceImage}.
     */
    public StackOptions classDataSharing(boolean enabled) {
        this.classDataSharing = enabled;
        return this;
    }

    /** Sandbox webhook retries ({@value #FAST_WEBHOOK_RETRY_SCHEDULE}) instead of the production schedule. */
    public StackOptions fastWebhookRetries(boolean fast) {
        this.fastWebhookRetries = fast;
        return this;
    }

    public StackOptions readyTimeout(Duration timeout) {
        this.readyTimeout = timeout;
        return this;
    }

    /**
     * Run the dev chain (anvil on {@link StackPort#DEV_CHAIN}, its state in {@code <data dir>/chain}) and
     * chain-watcher: on by default when {@link #devChainTools} finds what they need ({@code STACK_CHAIN=off}: never).
     */
    public StackOptions devChain(boolean run) {
        this.devChain = run;
        return this;
    }

    /** How the launcher learns whether the dev chain can run here (default: Node.js and npm on the PATH). */
    public StackOptions devChainTools(DevChainTools tools) {
        this.devChainTools = tools;
        return this;
    }

    /** An extra environment variable for one service (e.g. {@code PAYMENT_LINKS_EXPIRY_SWEEP_INTERVAL=1s}). */
    public StackOptions serviceEnv(String service, String name, String value) {
        serviceEnvironment
                .computeIfAbsent(StackService.byName(service), s -> new LinkedHashMap<>())
                .put(name, value);
        return this;
    }

    /**
     * Do not start this service: you run it yourself (IDE, debugger, {@code spring-boot:run}) on its port with the
     * settings the launcher writes to {@code <data dir>/<service>.env}. A skipped gateway is waited for, since the
     * sandbox merchant is created through it.
     */
    public StackOptions skipService(String service) {
        skipped.add(StackService.byName(service));
        return this;
    }

    /** Where progress lines go (default {@code System.out}). */
    public StackOptions out(PrintStream out) {
        this.out = out;
        return this;
    }

    public Path home() {
        return home;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Which PostgreSQL the stack uses and how it logs in. */
    public PostgresTarget postgres() {
        return postgres;
    }

    public boolean dropDatabasesOnClose() {
        return dropDatabasesOnClose;
    }

    public boolean deleteDataDirOnClose() {
        return deleteDataDirOnClose;
    }

    public List<String> jvmOptions() {
        return jvmOptions;
    }

    public boolean classDataSharing() {
        return classDataSharing;
    }

    public boolean fastWebhookRetries() {
        return fastWebhookRetries;
    }

    public Duration readyTimeout() {
        return readyTimeout;
    }

    public PrintStream out() {
        return out;
    }

    public boolean devChain() {
        return devChain;
    }

    public DevChainTools devChainTools() {
        return devChainTools;
    }

    /** Requested port of a service, the admin API, Kafka, embedded PostgreSQL or dev chain (0 = free port). */
    int port(StackPort what) {
        return ports.get(what);
    }

    /** Every requested port (0 = free port), in {@link StackPort} order. */
    Map<StackPort, Integer> ports() {
        return Collections.unmodifiableMap(ports);
    }

    boolean isSkipped(StackService service) {
        return skipped.contains(service);
    }

    /** The service's database: its base name and the data directory's suffix, e.g. {@code payment_links_1f0c9a3e}. */
    String databaseName(StackService service) {
        return service.database() + new StackLayout(dataDir).databaseSuffix();
    }

    /** What {@link #serviceEnv} added for the service. */
    Map<String, String> serviceEnvironment(StackService service) {
        return serviceEnvironment.getOrDefault(service, Map.of());
    }

    /** A copy whose changes leave this one alone (the maps and the set are copied too). */
    StackOptions copy() {
        try {
            StackOptions copy = (StackOptions) clone();
            copy.ports = new EnumMap<>(ports);
            copy.serviceEnvironment = new EnumMap<>(StackService.class);
            serviceEnvironment.forEach((k, v) -> copy.serviceEnvironment.put(k, new LinkedHashMap<>(v)));
            copy.skipped = EnumSet.copyOf(skipped);
            return copy;
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    private static int checkPort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("not a port: " + port);
        }
        return port;
    }
}
