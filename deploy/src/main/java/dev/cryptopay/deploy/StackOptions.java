package dev.cryptopay.deploy;

import dev.cryptopay.deploy.chain.DevChainTools;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every setting of a stack, in one place: {@link #fromEnvironment()} reads the {@code STACK_*} variables of
 * {@code ./run-local} (deploy/README.md "Settings"), {@link #forTests()} picks free ports, a temporary data directory
 * and databases dropped on close, so several stacks can run side by side. Fluent and mutable; {@code start} copies it.
 */
public final class StackOptions implements Cloneable {

    /**
     * The serial collector (one core's worth of services each) and the JIT left whole, so a service runs at full speed
     * once warm; start-up is helped by class-data archives instead. The heap starts at 128 MB because an idle service
     * cycles through its whole young generation, which is sized from it (docs/performance.md, "Start-up").
     */
    public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-Xms128m", "-Xmx256m");

    /** C1 only: the suite starts faster and runs slower, right for tests that start many stacks. */
    public static final List<String> QUICK_START_JVM_OPTIONS =
            List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xms128m", "-Xmx256m");

    /** The sandbox retry schedule of {@code STACK_FAST_WEBHOOK_RETRIES=true} (production: 0s,5m,30m,2h,24h). */
    public static final String FAST_WEBHOOK_RETRY_SCHEDULE = "0s,5s,15s,30s,60s";

    /** Which PostgreSQL ({@code STACK_POSTGRES}): the server at pgHost:pgPort if it answers, only it, or our own. */
    public enum PostgresMode {
        AUTO,
        LOCAL,
        EMBEDDED
    }

    Path home = repositoryRoot();
    Path dataDir = home.resolve(".local");
    Map<StackPort, Integer> ports = new EnumMap<>(StackPort.class);
    PostgresMode postgresMode = PostgresMode.AUTO;
    String pgHost = "127.0.0.1";
    int pgPort = 5432;
    String pgUser = "postgres";
    String pgPassword = "";
    boolean dropDatabasesOnClose;
    boolean deleteDataDirOnClose;
    List<String> jvmOptions = DEFAULT_JVM_OPTIONS;
    boolean classDataSharing = true;
    boolean fastWebhookRetries = true;
    Duration readyTimeout = Duration.ofSeconds(180);
    boolean devChain = true;
    DevChainTools devChainTools = DevChainTools.onPath();
    Map<StackService, Map<String, String>> serviceEnvironment = new EnumMap<>(StackService.class);
    EnumSet<StackService> skipped = EnumSet.noneOf(StackService.class);
    PrintStream out = System.out;

    private StackOptions() {
        for (StackPort port : StackPort.values()) {
            ports.put(port, port.defaultPort());
        }
    }

    /** Fixed default ports and {@code <repo>/.local}, without looking at the environment. */
    public static StackOptions defaults() {
        return new StackOptions();
    }

    /** @throws IllegalArgumentException naming the variable when a value is not valid */
    public static StackOptions fromEnvironment() {
        return defaults().applyEnvironment(System.getenv());
    }

    /**
     * Free ports, a temporary data directory deleted on close, databases dropped on close, no dev chain unless asked
     * for, C1 only and no class-data archives (recorded as a service exits, they would slow every test's close for no
     * later start). Only where PostgreSQL is and the JVM flags are taken from the environment.
     */
    public static StackOptions forTests() {
        Path temp;
        try {
            temp = Files.createTempDirectory("local-stack-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary data directory", e);
        }
        Map<String, String> env = new LinkedHashMap<>();
        System.getenv().forEach((k, v) -> {
            if (k.startsWith("STACK_PG_") || k.equals("STACK_POSTGRES") || k.equals("STACK_JVM_OPTS")) {
                env.put(k, v);
            }
        });
        return defaults()
                .jvmOptions(QUICK_START_JVM_OPTIONS)
                .classDataSharing(false)
                .applyEnvironment(env)
                .dataDir(temp)
                .randomPorts()
                .dropDatabasesOnClose(true)
                .deleteDataDirOnClose(true)
                .devChain(false)
                .readyTimeout(Duration.ofMinutes(4));
    }

    /** @throws IllegalArgumentException naming the variable when a value is not valid */
    StackOptions applyEnvironment(Map<String, String> env) {
        set(env, "STACK_DATA_DIR", v -> dataDir(Path.of(v)));
        set(
                env,
                "STACK_POSTGRES",
                v -> postgresMode(PostgresMode.valueOf(choice(v, "STACK_POSTGRES", "auto", "local", "embedded"))));
        set(env, "STACK_PG_HOST", this::pgHost);
        set(env, "STACK_PG_PORT", v -> pgPort(port(v, "STACK_PG_PORT")));
        set(env, "STACK_PG_USER", this::pgUser);
        if (env.containsKey("STACK_PG_PASSWORD")) {
            pgPassword(env.get("STACK_PG_PASSWORD"));
        }
        for (StackPort port : StackPort.values()) {
            set(env, port.variable(), v -> port(port, port(v, port.variable())));
        }
        set(env, "STACK_JVM_OPTS", v -> jvmOptions(Arrays.asList(v.trim().split("\\s+"))));
        set(
                env,
                "STACK_CLASS_DATA_SHARING",
                v -> classDataSharing(
                        choice(v, "STACK_CLASS_DATA_SHARING", "true", "false").equals("TRUE")));
        set(
                env,
                "STACK_FAST_WEBHOOK_RETRIES",
                v -> fastWebhookRetries(
                        choice(v, "STACK_FAST_WEBHOOK_RETRIES", "true", "false").equals("TRUE")));
        set(
                env,
                "STACK_CHAIN",
                v -> devChain(choice(v, "STACK_CHAIN", "auto", "off").equals("AUTO")));
        set(env, "STACK_READY_TIMEOUT", v -> readyTimeout(Duration.ofSeconds(port(v, "STACK_READY_TIMEOUT"))));
        set(env, "STACK_SKIP", v -> {
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

    private static void set(Map<String, String> env, String name, java.util.function.Consumer<String> setter) {
        String value = env.get(name);
        if (value != null && !value.isBlank()) {
            setter.accept(value);
        }
    }

    private static String choice(String value, String name, String... allowed) {
        for (String option : allowed) {
            if (option.equalsIgnoreCase(value.trim())) {
                return option.toUpperCase(Locale.ROOT);
            }
        }
        throw new IllegalArgumentException(name + " must be "
                + String.join(" or ", allowed).replaceFirst(" or (?=.* or )", ", ") + ", not '" + value + "'");
    }

    private static int port(String value, String name) {
        try {
            return checkPort(Integer.parseInt(value.trim()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " must be a number from 0 to 65535, not '" + value + "'");
        }
    }

    private static int checkPort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("not a port: " + port);
        }
        return port;
    }

    // Setters: a port of 0 means a free one, chosen at start and kept until close.

    public StackOptions home(Path home) {
        this.home = home.toAbsolutePath();
        return this;
    }

    public StackOptions dataDir(Path dataDir) {
        this.dataDir = dataDir.toAbsolutePath();
        return this;
    }

    public StackOptions randomPorts() {
        ports.replaceAll((what, port) -> 0);
        return this;
    }

    public StackOptions servicePort(String service, int port) {
        return port(StackPort.of(StackService.byName(service)), port);
    }

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

    public StackOptions dropDatabasesOnClose(boolean drop) {
        this.dropDatabasesOnClose = drop;
        return this;
    }

    public StackOptions deleteDataDirOnClose(boolean delete) {
        this.deleteDataDirOnClose = delete;
        return this;
    }

    public StackOptions jvmOptions(List<String> options) {
        this.jvmOptions = List.copyOf(options);
        return this;
    }

    /** Record a class-data archive on a build's first run of each service and start later runs from it. */
    public StackOptions classDataSharing(boolean enabled) {
        this.classDataSharing = enabled;
        return this;
    }

    public StackOptions fastWebhookRetries(boolean fast) {
        this.fastWebhookRetries = fast;
        return this;
    }

    public StackOptions readyTimeout(Duration timeout) {
        this.readyTimeout = timeout;
        return this;
    }

    /** Run anvil and chain-watcher when {@link #devChainTools} finds what they need. */
    public StackOptions devChain(boolean run) {
        this.devChain = run;
        return this;
    }

    public StackOptions devChainTools(DevChainTools tools) {
        this.devChainTools = tools;
        return this;
    }

    /** An extra environment variable for one service; it wins over the launcher's own. */
    public StackOptions serviceEnv(String service, String name, String value) {
        serviceEnvironment
                .computeIfAbsent(StackService.byName(service), s -> new LinkedHashMap<>())
                .put(name, value);
        return this;
    }

    /** You run this service yourself, with the settings written to {@code <data dir>/<service>.env}. */
    public StackOptions skipService(String service) {
        skipped.add(StackService.byName(service));
        return this;
    }

    public StackOptions out(PrintStream out) {
        this.out = out;
        return this;
    }

    int port(StackPort what) {
        return ports.get(what);
    }

    boolean isSkipped(StackService service) {
        return skipped.contains(service);
    }

    /** The data directory's databases: base name and its suffix, e.g. {@code payment_links_1f0c9a3e}. */
    String databaseName(StackService service) {
        return service.database() + new StackFiles(dataDir).databaseSuffix();
    }

    Map<String, String> serviceEnvironment(StackService service) {
        return serviceEnvironment.getOrDefault(service, Map.of());
    }

    /** {@code STACK_HOME}, else the closest directory up from here holding {@code mvnw} and {@code deploy/pom.xml}. */
    static Path repositoryRoot() {
        String fromEnv = System.getenv("STACK_HOME");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Path.of(fromEnv).toAbsolutePath();
        }
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("mvnw")) && Files.exists(dir.resolve("deploy/pom.xml"))) {
                return dir;
            }
        }
        return start;
    }

    StackOptions copy() {
        try {
            StackOptions copy = (StackOptions) clone();
            copy.ports = new EnumMap<>(ports);
            copy.skipped = EnumSet.copyOf(skipped);
            copy.serviceEnvironment = new EnumMap<>(StackService.class);
            serviceEnvironment.forEach((k, v) -> copy.serviceEnvironment.put(k, new LinkedHashMap<>(v)));
            return copy;
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }
}
