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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Every setting of a stack, in one place: {@link #fromEnvironment()} reads the {@code STACK_*} variables of
 * {@code ./run-local} (deploy/README.md "Settings"), {@link #forTests()} picks free ports, a temporary data directory
 * and databases dropped on close, so several stacks can run side by side. Other modules' tests use the fluent setters;
 * this package's set the fields. A port of 0 means a free one, chosen at start and kept until close.
 */
public final class StackOptions {

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
    static final String FAST_WEBHOOK_RETRY_SCHEDULE = "0s,5s,15s,30s,60s";

    /** Which PostgreSQL ({@code STACK_POSTGRES}): the server at pgHost:pgPort if it answers, only it, or our own. */
    public enum PostgresMode {
        AUTO,
        LOCAL,
        EMBEDDED
    }

    Path home = repositoryRoot();
    Path dataDir = home.resolve(".local");
    final Map<StackPort, Integer> ports = new EnumMap<>(StackPort.class);
    PostgresMode postgresMode = PostgresMode.AUTO;
    String pgHost = "127.0.0.1";
    int pgPort = 5432;
    String pgUser = "postgres";
    String pgPassword = "";
    boolean dropDatabasesOnClose;
    boolean deleteDataDirOnClose;
    List<String> jvmOptions = DEFAULT_JVM_OPTIONS;
    /** Record a class-data archive on a build's first run of each service and start later runs from it. */
    boolean classDataSharing = true;

    boolean fastWebhookRetries = true;
    Duration readyTimeout = Duration.ofSeconds(180);
    /** When a crashed service is started again and when the launcher gives up on it (tests shorten the waits). */
    RestartPolicy restartPolicy = RestartPolicy.STANDARD;

    boolean devChain = true;
    /** How many instances of each service run (more than one: each service's port balances them). */
    int instances = 1;

    DevChainTools devChainTools = DevChainTools.onPath();
    final Map<StackService, Map<String, String>> serviceEnvironment = new EnumMap<>(StackService.class);
    final Set<StackService> skipped = EnumSet.noneOf(StackService.class);
    PrintStream out = System.out;

    /** Fixed default ports and {@code <repo>/.local}, without looking at the environment. */
    StackOptions() {
        for (StackPort port : StackPort.values()) {
            ports.put(port, port.defaultPort);
        }
    }

    /** @throws IllegalArgumentException naming the variable when a value is not valid */
    public static StackOptions fromEnvironment() {
        return new StackOptions().applyEnvironment(System.getenv());
    }

    /**
     * Free ports, a temporary data directory deleted on close, databases dropped on close, no dev chain unless asked
     * for, C1 only and no class-data archives (recorded as a service exits, they would slow every test's close for no
     * later start). Only where PostgreSQL is and the JVM flags are taken from the environment.
     */
    public static StackOptions forTests() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(name -> !name.matches("STACK_PG_.*|STACK_POSTGRES|STACK_JVM_OPTS"));
        StackOptions options = new StackOptions();
        options.jvmOptions = QUICK_START_JVM_OPTIONS;
        options.applyEnvironment(env);
        try {
            options.dataDir = Files.createTempDirectory("local-stack-").toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary data directory", e);
        }
        options.ports.replaceAll((port, number) -> 0);
        options.classDataSharing = false;
        options.dropDatabasesOnClose = true;
        options.deleteDataDirOnClose = true;
        options.devChain = false;
        options.readyTimeout = Duration.ofMinutes(4);
        return options;
    }

    StackOptions applyEnvironment(Map<String, String> env) {
        set(env, "STACK_DATA_DIR", (name, v) -> dataDir = Path.of(v).toAbsolutePath());
        set(
                env,
                "STACK_POSTGRES",
                (name, v) -> postgresMode = PostgresMode.valueOf(choice(name, v, "auto", "local", "embedded")));
        set(env, "STACK_PG_HOST", (name, v) -> pgHost = v);
        set(env, "STACK_PG_PORT", (name, v) -> pgPort = number(name, v));
        set(env, "STACK_PG_USER", (name, v) -> pgUser = v);
        pgPassword = env.getOrDefault("STACK_PG_PASSWORD", pgPassword);
        for (StackPort port : StackPort.values()) {
            set(env, port.variable, (name, v) -> ports.put(port, number(name, v)));
        }
        set(env, "STACK_JVM_OPTS", (name, v) -> jvmOptions = List.of(v.trim().split("\\s+")));
        set(env, "STACK_CLASS_DATA_SHARING", (name, v) -> classDataSharing = yes(name, v, "true", "false"));
        set(env, "STACK_FAST_WEBHOOK_RETRIES", (name, v) -> fastWebhookRetries = yes(name, v, "true", "false"));
        set(env, "STACK_CHAIN", (name, v) -> devChain = yes(name, v, "auto", "off"));
        set(env, "STACK_READY_TIMEOUT", (name, v) -> readyTimeout = Duration.ofSeconds(number(name, v)));
        set(env, "STACK_INSTANCES", (name, v) -> {
            if (!v.trim().matches("[1-4]")) {
                throw new IllegalArgumentException(name + " must be a number from 1 to 4, not '" + v + "'");
            }
            instances = Integer.parseInt(v.trim());
        });
        set(env, "STACK_SKIP", (name, v) -> {
            try {
                Arrays.stream(v.split(",")).filter(s -> !s.isBlank()).forEach(s -> skipService(s.trim()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(name + ": " + e.getMessage());
            }
        });
        return this;
    }

    private static void set(Map<String, String> env, String name, BiConsumer<String, String> setter) {
        String value = env.get(name);
        if (value != null && !value.isBlank()) {
            setter.accept(name, value);
        }
    }

    private static boolean yes(String name, String value, String yes, String no) {
        return choice(name, value, yes, no).equalsIgnoreCase(yes);
    }

    private static String choice(String name, String value, String... allowed) {
        for (String option : allowed) {
            if (option.equalsIgnoreCase(value.trim())) {
                return option.toUpperCase(Locale.ROOT);
            }
        }
        throw new IllegalArgumentException(name + " must be "
                + String.join(" or ", allowed).replaceFirst(" or (?=.* or )", ", ") + ", not '" + value + "'");
    }

    /** A port, or a number of seconds, from 0 to 65535. */
    private static int number(String name, String value) {
        if (!value.trim().matches("\\+?\\d{1,5}") || Integer.parseInt(value.trim()) > 65535) {
            throw new IllegalArgumentException(name + " must be a number from 0 to 65535, not '" + value + "'");
        }
        return Integer.parseInt(value.trim());
    }

    /** Run anvil and chain-watcher when {@link #devChainTools} finds what they need. */
    public StackOptions devChain(boolean run) {
        this.devChain = run;
        return this;
    }

    /** An extra environment variable for one service; it wins over the launcher's own. */
    public StackOptions serviceEnv(String service, String name, String value) {
        serviceEnvironment
                .computeIfAbsent(StackService.byName(service), s -> new LinkedHashMap<>())
                .put(name, value);
        return this;
    }

    /**
     * Runs {@code count} instances of each service (1 to 4), as a platform team runs several: each on a port of its
     * own, the service's port handing connections to them in turn ({@link ServiceBalancer}).
     */
    public StackOptions instances(int count) {
        if (count < 1 || count > 4) {
            throw new IllegalArgumentException("instances must be from 1 to 4, not " + count);
        }
        this.instances = count;
        return this;
    }

    /** The stack runs its own PostgreSQL, as {@code STACK_POSTGRES=embedded} (so that it may restart it). */
    public StackOptions embeddedPostgres() {
        this.postgresMode = PostgresMode.EMBEDDED;
        return this;
    }

    /** You run this service yourself, with the settings written to {@code <data dir>/<service>.env}. */
    public StackOptions skipService(String service) {
        skipped.add(StackService.byName(service));
        return this;
    }

    boolean runs(StackService service, boolean devChainRuns) {
        return !skipped.contains(service) && (service != StackService.CHAIN_WATCHER || devChainRuns);
    }

    /** The data directory's databases: base name and its suffix, e.g. {@code payment_links_1f0c9a3e}. */
    String databaseName(StackService service) {
        return service.database + new StackFiles(dataDir).databaseSuffix();
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
}
