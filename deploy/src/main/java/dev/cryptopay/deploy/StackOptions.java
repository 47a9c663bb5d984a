package dev.cryptopay.deploy;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * What {@link LocalStack#start(StackOptions)} starts and where. A mutable, fluent holder: {@code start} takes a copy.
 *
 * <p>{@link #fromEnvironment()} is what {@code ./run-local} uses (fixed ports, data in {@code <repo>/.local},
 * {@code STACK_*} environment variables applied); {@link #forTests()} picks free ports, a temporary data directory
 * and uniquely named databases that are dropped on close, so several stacks can run side by side.
 */
public final class StackOptions {

    /** Which PostgreSQL the stack uses. */
    public enum PostgresMode {
        /** The server at {@code pgHost:pgPort} when something listens there, otherwise an embedded one. */
        AUTO,
        /** Only the server at {@code pgHost:pgPort}; fail when it does not answer. */
        LOCAL,
        /** Always an embedded PostgreSQL with its data in {@code <dataDir>/postgres}. */
        EMBEDDED
    }

    /** Lean flags for the service JVMs: measured to start the suite faster on 2 cores than the JVM defaults. */
    public static final List<String> DEFAULT_JVM_OPTIONS =
            List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx256m");

    /** The sandbox retry schedule of {@code STACK_FAST_WEBHOOK_RETRIES=true} (production: 0s,5m,30m,2h,24h). */
    public static final String FAST_WEBHOOK_RETRY_SCHEDULE = "0s,5s,15s,30s,60s";

    private Path home;
    private Path dataDir;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private PostgresMode postgresMode = PostgresMode.AUTO;
    private String pgHost = "127.0.0.1";
    private int pgPort = 5432;
    private String pgUser = "postgres";
    private String pgPassword = "";
    private String databasePrefix = "";
    private boolean dropDatabasesOnClose;
    private List<String> jvmOptions = DEFAULT_JVM_OPTIONS;
    private boolean fastWebhookRetries = true;
    private Duration readyTimeout = Duration.ofSeconds(180);
    private final Map<String, Map<String, String>> serviceEnvironment = new HashMap<>();
    private final java.util.Set<StackService> skipped = java.util.EnumSet.noneOf(StackService.class);
    private PrintStream out = System.out;
    private boolean deleteDataDirOnClose;

    private StackOptions() {
        home = findRepositoryRoot(Path.of("").toAbsolutePath());
        dataDir = home.resolve(".local");
        ports.put(StackService.GATEWAY.serviceName(), 8080);
        ports.put(ADMIN, 8090);
        ports.put(StackService.PAYMENT_LINKS.serviceName(), 8081);
        ports.put(StackService.SUBSCRIPTIONS.serviceName(), 8082);
        ports.put(StackService.WEBHOOKS.serviceName(), 8083);
        ports.put(KAFKA, 9092);
        ports.put(EMBEDDED_POSTGRES, 54329);
    }

    static final String ADMIN = "gateway admin API";
    static final String KAFKA = "Kafka";
    static final String EMBEDDED_POSTGRES = "embedded PostgreSQL";

    /** Fixed default ports and {@code <repo>/.local}, without looking at the environment. */
    public static StackOptions defaults() {
        return new StackOptions();
    }

    /**
     * The defaults with the {@code STACK_*} environment variables applied (see deploy/README.md): {@code
     * STACK_DATA_DIR}, {@code STACK_POSTGRES}, {@code STACK_PG_HOST/PORT/USER/PASSWORD}, {@code
     * STACK_EMBEDDED_PG_PORT}, {@code STACK_KAFKA_PORT}, {@code STACK_GATEWAY_PORT}, {@code STACK_ADMIN_PORT},
     * {@code STACK_PAYMENT_LINKS_PORT}, {@code STACK_SUBSCRIPTIONS_PORT}, {@code STACK_WEBHOOKS_PORT}, {@code
     * STACK_JVM_OPTS}, {@code STACK_FAST_WEBHOOK_RETRIES}, {@code STACK_READY_TIMEOUT} (seconds), {@code STACK_SKIP}
     * (comma-separated services you run yourself).
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
        StackOptions options = defaults()
                .applyEnvironment(onlyPostgresVariables(System.getenv()))
                .dataDir(temp)
                .randomPorts()
                .databasePrefix(
                        "stack_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10) + "_")
                .dropDatabasesOnClose(true)
                .readyTimeout(Duration.ofMinutes(4));
        options.deleteDataDirOnClose = true;
        return options;
    }

    StackOptions applyEnvironment(Map<String, String> env) {
        string(env, "STACK_DATA_DIR").ifPresent(v -> dataDir(Path.of(v).toAbsolutePath()));
        string(env, "STACK_POSTGRES").ifPresent(v -> {
            try {
                postgresMode(PostgresMode.valueOf(v.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("STACK_POSTGRES must be auto, local or embedded, not '" + v + "'");
            }
        });
        string(env, "STACK_PG_HOST").ifPresent(this::pgHost);
        integer(env, "STACK_PG_PORT").ifPresent(this::pgPort);
        string(env, "STACK_PG_USER").ifPresent(this::pgUser);
        if (env.containsKey("STACK_PG_PASSWORD")) {
            pgPassword(env.get("STACK_PG_PASSWORD"));
        }
        integer(env, "STACK_EMBEDDED_PG_PORT").ifPresent(p -> ports.put(EMBEDDED_POSTGRES, p));
        integer(env, "STACK_KAFKA_PORT").ifPresent(p -> ports.put(KAFKA, p));
        integer(env, "STACK_GATEWAY_PORT").ifPresent(p -> ports.put(StackService.GATEWAY.serviceName(), p));
        integer(env, "STACK_ADMIN_PORT").ifPresent(p -> ports.put(ADMIN, p));
        integer(env, "STACK_PAYMENT_LINKS_PORT").ifPresent(p -> ports.put(StackService.PAYMENT_LINKS.serviceName(), p));
        integer(env, "STACK_SUBSCRIPTIONS_PORT").ifPresent(p -> ports.put(StackService.SUBSCRIPTIONS.serviceName(), p));
        integer(env, "STACK_WEBHOOKS_PORT").ifPresent(p -> ports.put(StackService.WEBHOOKS.serviceName(), p));
        string(env, "STACK_JVM_OPTS")
                .ifPresent(v -> jvmOptions(Arrays.asList(v.trim().split("\\s+"))));
        string(env, "STACK_FAST_WEBHOOK_RETRIES").ifPresent(v -> {
            if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                throw new IllegalArgumentException("STACK_FAST_WEBHOOK_RETRIES must be true or false, not '" + v + "'");
            }
            fastWebhookRetries(Boolean.parseBoolean(v));
        });
        integer(env, "STACK_READY_TIMEOUT").ifPresent(s -> readyTimeout(Duration.ofSeconds(s)));
        string(env, "STACK_SKIP").ifPresent(v -> {
            for (String name : v.split(",")) {
                if (!name.isBlank()) {
                    try {
                        skipService(name.trim());
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("STACK_SKIP: " + e.getMessage());
                    }
                }
            }
        });
        return this;
    }

    private static Map<String, String> onlyPostgresVariables(Map<String, String> env) {
        Map<String, String> selected = new HashMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith("STACK_PG_") || k.equals("STACK_POSTGRES") || k.equals("STACK_JVM_OPTS")) {
                selected.put(k, v);
            }
        });
        return selected;
    }

    // ---- fluent setters ----

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
        ports.replaceAll((name, port) -> 0);
        return this;
    }

    /** Port of a service ({@link StackService#serviceName()}); 0 = a free port. */
    public StackOptions servicePort(String service, int port) {
        ports.put(StackService.byName(service).serviceName(), checkPort(port));
        return this;
    }

    public StackOptions adminPort(int port) {
        ports.put(ADMIN, checkPort(port));
        return this;
    }

    public StackOptions kafkaPort(int port) {
        ports.put(KAFKA, checkPort(port));
        return this;
    }

    public StackOptions embeddedPostgresPort(int port) {
        ports.put(EMBEDDED_POSTGRES, checkPort(port));
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
                .computeIfAbsent(StackService.byName(service).serviceName(), s -> new LinkedHashMap<>())
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

    // ---- getters ----

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
    int port(String what) {
        return ports.get(what);
    }

    Map<String, Integer> ports() {
        return ports;
    }

    boolean isSkipped(StackService service) {
        return skipped.contains(service);
    }

    Map<String, String> serviceEnvironment(String service) {
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

    /** The directory holding {@code mvnw} and {@code deploy/pom.xml}, searched upwards from {@code start}. */
    static Path findRepositoryRoot(Path start) {
        String fromEnv = System.getenv("STACK_HOME");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Path.of(fromEnv).toAbsolutePath();
        }
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("mvnw"))
                    && Files.exists(dir.resolve("deploy").resolve("pom.xml"))) {
                return dir;
            }
        }
        return start;
    }

    private static int checkPort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("not a port: " + port);
        }
        return port;
    }

    private static java.util.Optional<String> string(Map<String, String> env, String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? java.util.Optional.empty() : java.util.Optional.of(value);
    }

    private static java.util.Optional<Integer> integer(Map<String, String> env, String name) {
        return string(env, name).map(v -> {
            try {
                int parsed = Integer.parseInt(v.trim());
                if (parsed < 0 || parsed > 65535) {
                    throw new NumberFormatException();
                }
                return parsed;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a number from 0 to 65535, not '" + v + "'");
            }
        });
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        parts.add("home=" + home);
        parts.add("dataDir=" + dataDir);
        parts.add("ports=" + ports);
        parts.add("postgres=" + postgresMode + " " + pgHost + ":" + pgPort);
        return "StackOptions" + parts;
    }
}
