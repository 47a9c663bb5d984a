package dev.cryptopay.deploy;

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
import java.util.Set;
import java.util.UUID;

/**
 * What {@link LocalStack#start(StackOptions)} starts and where. A mutable, fluent holder: {@code start} takes a copy.
 *
 * <p>{@link #fromEnvironment()} is what {@code ./run-local} uses (fixed ports, data in {@code <repo>/.local},
 * {@code STACK_*} environment variables applied); {@link #forTests()} picks free ports, a temporary data directory
 * and uniquely named databases that are dropped on close, so several stacks can run side by side.
 */
public final class StackOptions {

    /** Lean flags for the service JVMs: measured to start the suite faster on 2 cores than the JVM defaults. */
    public static final List<String> DEFAULT_JVM_OPTIONS =
            List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m");

    /** The sandbox retry schedule of {@code STACK_FAST_WEBHOOK_RETRIES=true} (production: 0s,5m,30m,2h,24h). */
    public static final String FAST_WEBHOOK_RETRY_SCHEDULE = "0s,5s,15s,30s,60s";

    private Path home;
    private Path dataDir;
    private final Map<StackPort, Integer> ports = new EnumMap<>(StackPort.class);
    private PostgresMode postgresMode = PostgresMode.AUTO;
    private String pgHost = "127.0.0.1";
    private int pgPort = 5432;
    private String pgUser = "postgres";
    private String pgPassword = "";
    private String databasePrefix = "";
    private boolean dropDatabasesOnClose;
    private boolean deleteDataDirOnClose;
    private List<String> jvmOptions = DEFAULT_JVM_OPTIONS;
    private boolean fastWebhookRetries = true;
    private Duration readyTimeout = Duration.ofSeconds(180);
    private final Map<StackService, Map<String, String>> serviceEnvironment = new EnumMap<>(StackService.class);
    private final Set<StackService> skipped = EnumSet.noneOf(StackService.class);
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
     * says (default: the local server when it answers, else embedded) with databases named {@code
     * stack_<random>_<name>} that are dropped on close, and a ready timeout of 4 minutes.
     */
    public static StackOptions forTests() {
        Path temp;
        try {
            temp = Files.createTempDirectory("local-stack-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary data directory", e);
        }
        return defaults()
                .applyEnvironment(StackEnvironmentVariables.postgresAndJvmOnly(System.getenv()))
                .dataDir(temp)
                .randomPorts()
                .databasePrefix(
                        "stack_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10) + "_")
                .dropDatabasesOnClose(true)
                .deleteDataDirOnClose(true)
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

    /** Every port (services, admin API, Kafka, embedded PostgreSQL) chosen free at start and kept until close. */
    public StackOptions randomPorts() {
        ports.replaceAll((what, port) -> 0);
        return this;
    }

    /** Port of a service ({@link StackService#serviceName()}); 0 = a free port. */
    public StackOptions servicePort(String service, int port) {
        return port(StackPort.of(StackService.byName(service)), port);
    }

    /** Port of a service, the admin API, Kafka or the embedded PostgreSQL; 0 = a free port. */
    public StackOptions port(StackPort what, int port) {
        ports.put(what, checkPort(port));
        return this;
    }

    public StackOptions postgresMode(PostgresMode mode) {
        this.postgresMode = mode;
        return this;
    }

    public StackOptions pgHost(String host) {
        this.pgHost = host;
        return this;
    }

    public StackOptions pgPort(int port) {
        this.pgPort = checkPort(port);
        return this;
    }

    public StackOptions pgUser(String user) {
        this.pgUser = user;
        return this;
    }

    public StackOptions pgPassword(String password) {
        this.pgPassword = password == null ? "" : password;
        return this;
    }

    /** Prefix of the four database names ({@code gateway}, {@code payment_links}, ...); empty by default. */
    public StackOptions databasePrefix(String prefix) {
        if (!prefix.matches("[a-z0-9_]*")) {
            throw new IllegalArgumentException("database prefix may only hold a-z, 0-9 and _: " + prefix);
        }
        this.databasePrefix = prefix;
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

    /** Sandbox webhook retries ({@value #FAST_WEBHOOK_RETRY_SCHEDULE}) instead of the production schedule. */
    public StackOptions fastWebhookRetries(boolean fast) {
        this.fastWebhookRetries = fast;
        return this;
    }

    public StackOptions readyTimeout(Duration timeout) {
        this.readyTimeout = timeout;
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

    public PostgresMode postgresMode() {
        return postgresMode;
    }

    public String pgHost() {
        return pgHost;
    }

    public int pgPort() {
        return pgPort;
    }

    public String pgUser() {
        return pgUser;
    }

    public String pgPassword() {
        return pgPassword;
    }

    public String databasePrefix() {
        return databasePrefix;
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

    public boolean fastWebhookRetries() {
        return fastWebhookRetries;
    }

    public Duration readyTimeout() {
        return readyTimeout;
    }

    public PrintStream out() {
        return out;
    }

    /** Requested port of a service, the admin API, Kafka or embedded PostgreSQL (0 = free port). */
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

    /** The service's database: {@link #databasePrefix()} + its base name. */
    String databaseName(StackService service) {
        return databasePrefix + service.database();
    }

    /** What {@link #serviceEnv} added for the service. */
    Map<String, String> serviceEnvironment(StackService service) {
        return serviceEnvironment.getOrDefault(service, Map.of());
    }

    StackOptions copy() {
        StackOptions copy = new StackOptions();
        copy.home = home;
        copy.dataDir = dataDir;
        copy.ports.putAll(ports);
        copy.postgresMode = postgresMode;
        copy.pgHost = pgHost;
        copy.pgPort = pgPort;
        copy.pgUser = pgUser;
        copy.pgPassword = pgPassword;
        copy.databasePrefix = databasePrefix;
        copy.dropDatabasesOnClose = dropDatabasesOnClose;
        copy.deleteDataDirOnClose = deleteDataDirOnClose;
        copy.jvmOptions = jvmOptions;
        copy.fastWebhookRetries = fastWebhookRetries;
        copy.readyTimeout = readyTimeout;
        serviceEnvironment.forEach((k, v) -> copy.serviceEnvironment.put(k, new LinkedHashMap<>(v)));
        copy.skipped.addAll(skipped);
        copy.out = out;
        return copy;
    }

    private static int checkPort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("not a port: " + port);
        }
        return port;
    }
}
