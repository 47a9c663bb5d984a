package dev.cryptopay.deploy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The {@code STACK_*} environment variables of {@code ./run-local} applied to {@link StackOptions}. */
final class StackEnvironmentVariables {

    /** The order the port variables are read in: with several bad values, the first one is reported. */
    private static final List<StackPort> PORTS_IN_READING_ORDER = List.of(
            StackPort.EMBEDDED_POSTGRES,
            StackPort.KAFKA,
            StackPort.GATEWAY,
            StackPort.ADMIN,
            StackPort.PAYMENT_LINKS,
            StackPort.SUBSCRIPTIONS,
            StackPort.WEBHOOKS,
            StackPort.CHAIN_WATCHER,
            StackPort.DEV_CHAIN);

    private StackEnvironmentVariables() {}

    /** @throws IllegalArgumentException naming the variable when a value is not valid */
    static StackOptions apply(StackOptions options, Map<String, String> env) {
        string(env, "STACK_DATA_DIR").ifPresent(v -> options.dataDir(Path.of(v).toAbsolutePath()));
        string(env, "STACK_POSTGRES").ifPresent(v -> {
            try {
                options.postgresMode(PostgresMode.valueOf(v.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("STACK_POSTGRES must be auto, local or embedded, not '" + v + "'");
            }
        });
        string(env, "STACK_PG_HOST").ifPresent(options::pgHost);
        integer(env, "STACK_PG_PORT").ifPresent(options::pgPort);
        string(env, "STACK_PG_USER").ifPresent(options::pgUser);
        if (env.containsKey("STACK_PG_PASSWORD")) {
            options.pgPassword(env.get("STACK_PG_PASSWORD"));
        }
        for (StackPort port : PORTS_IN_READING_ORDER) {
            integer(env, port.variable()).ifPresent(p -> options.port(port, p));
        }
        string(env, "STACK_JVM_OPTS")
                .ifPresent(v -> options.jvmOptions(Arrays.asList(v.trim().split("\\s+"))));
        string(env, "STACK_CLASS_DATA_SHARING").ifPresent(v -> {
            if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                throw new IllegalArgumentException("STACK_CLASS_DATA_SHARING must be true or false, not '" + v + "'");
            }
            options.classDataSharing(Boolean.parseBoolean(v));
        });
        string(env, "STACK_FAST_WEBHOOK_RETRIES").ifPresent(v -> {
            if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                throw new IllegalArgumentException("STACK_FAST_WEBHOOK_RETRIES must be true or false, not '" + v + "'");
            }
            options.fastWebhookRetries(Boolean.parseBoolean(v));
        });
        string(env, "STACK_CHAIN").ifPresent(v -> {
            if (!v.equalsIgnoreCase("auto") && !v.equalsIgnoreCase("off")) {
                throw new IllegalArgumentException("STACK_CHAIN must be auto or off, not '" + v + "'");
            }
            options.devChain(v.equalsIgnoreCase("auto"));
        });
        integer(env, "STACK_READY_TIMEOUT").ifPresent(s -> options.readyTimeout(Duration.ofSeconds(s)));
        string(env, "STACK_SKIP").ifPresent(v -> {
            for (String name : v.split(",")) {
                if (!name.isBlank()) {
                    try {
                        options.skipService(name.trim());
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("STACK_SKIP: " + e.getMessage());
                    }
                }
            }
        });
        return options;
    }

    /** What test stacks take from the environment: where PostgreSQL is, and the service JVM flags. */
    static Map<String, String> postgresAndJvmOnly(Map<String, String> env) {
        Map<String, String> selected = new HashMap<>();
        env.forEach((k, v) -> {
            if (k.startsWith("STACK_PG_") || k.equals("STACK_POSTGRES") || k.equals("STACK_JVM_OPTS")) {
                selected.put(k, v);
            }
        });
        return selected;
    }

    private static Optional<String> string(Map<String, String> env, String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }

    private static Optional<Integer> integer(Map<String, String> env, String name) {
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
}
