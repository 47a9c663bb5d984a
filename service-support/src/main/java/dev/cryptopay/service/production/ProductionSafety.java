package dev.cryptopay.service.production;

import dev.cryptopay.auth.internal.InternalCallers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertyResolver;

/**
 * What the {@code production} profile refuses, as a list of problems, each naming its setting. Pure: reads only the
 * given properties, so it is tested without starting anything.
 */
public final class ProductionSafety {

    /** The profile under which {@link ProductionSafetyListener} refuses unsafe settings. */
    public static final String PROFILE = "production";

    /** The application that issues internal tokens instead of checking them, with its own key and Redis. */
    static final String GATEWAY = "gateway";
    /** The application that reports transactions as the internal caller {@code chain-watcher}. */
    static final String CHAIN_WATCHER = "chain-watcher";

    /**
     * The callers each service must accept besides the gateway (whose merchant requests every service but the chain
     * watcher serves): payment-links-service takes the chain watcher's reports.
     */
    static final Map<String, List<String>> REQUIRED_CALLERS =
            Map.of("payment-links-service", List.of(InternalCallers.CHAIN_WATCHER));

    static final int MIN_ADMIN_TOKEN_CHARS = 24;
    static final int ENCRYPTION_KEY_BYTES = 32;

    private ProductionSafety() {}

    /** Every unsafe setting found; empty when the configuration may run in production. */
    public static List<String> problems(ConfigurableEnvironment env) {
        List<String> problems = new ArrayList<>();
        String application = value(env, "spring.application.name");
        boolean gateway = GATEWAY.equals(application);
        boolean internalAuth = !"false".equalsIgnoreCase(value(env, "internal-auth.enabled"));
        if (!internalAuth && !gateway) {
            problems.add("internal-auth.enabled=false: every service must check the internal tokens of its callers");
        }
        if (internalAuth) {
            callerKeys(env, application, problems);
        }
        if (gateway) {
            privateKey(env, "gateway.internal-auth.private-key", problems);
            secret(env, "gateway.admin.token", MIN_ADMIN_TOKEN_CHARS, problems);
            if (!"true".equalsIgnoreCase(value(env, "gateway.redis.enabled"))) {
                problems.add("gateway.redis.enabled must be true: production runs several gateway instances "
                        + "(HPA), and without Redis each keeps its own rate limits and replay guard");
            }
        }
        if (CHAIN_WATCHER.equals(application)) {
            privateKey(env, "chain-watcher.internal-auth.private-key", problems);
        }
        if (env.containsProperty("webhooks.secret-encryption-key")) {
            encryptionKey(env, "webhooks.secret-encryption-key", problems);
        }
        if ("true".equalsIgnoreCase(value(env, "webhooks.delivery.allow-private-addresses"))) {
            problems.add("webhooks.delivery.allow-private-addresses=true: webhooks could be aimed at internal "
                    + "addresses (SSRF); it is for the local stack only");
        }
        return problems;
    }

    /**
     * The public keys of the callers a service accepts: the gateway's on every service but the gateway and the chain
     * watcher, which serve no merchant routes; the callers of {@link #REQUIRED_CALLERS}; every configured caller's
     * keys set and none a committed development key (whose private key anyone can read, and so sign as that caller).
     */
    private static void callerKeys(ConfigurableEnvironment env, String application, List<String> problems) {
        Set<String> callers = configuredCallers(env);
        if (needsGateway(application)) {
            callers.add(InternalCallers.GATEWAY);
        }
        callers.addAll(REQUIRED_CALLERS.getOrDefault(application == null ? "" : application, List.of()));
        for (String caller : callers) {
            String name = "internal-auth.callers." + caller + ".public-keys";
            List<String> keys = list(env, name);
            if (keys.isEmpty()) {
                problems.add(name + " is not set");
            } else if (keys.stream().anyMatch(DevelopmentSecrets::isDevelopmentValue)) {
                problems.add(name + " holds a development key committed in the repository; generate a new key pair");
            }
        }
    }

    private static boolean needsGateway(String application) {
        return !GATEWAY.equals(application) && !CHAIN_WATCHER.equals(application);
    }

    /** The caller ids under {@code internal-auth.callers}, from every property source. */
    private static Set<String> configuredCallers(ConfigurableEnvironment env) {
        Set<String> callers = new TreeSet<>();
        Binder.get(env)
                .bind("internal-auth.callers", Bindable.mapOf(String.class, Object.class))
                .ifBound(map -> callers.addAll(map.keySet()));
        return callers;
    }

    /** A caller's own private key: set and not a development key. (Its form is checked when the signer is made.) */
    private static void privateKey(PropertyResolver env, String name, List<String> problems) {
        String value = value(env, name);
        if (value == null || value.isBlank()) {
            problems.add(name + " is not set");
        } else if (DevelopmentSecrets.isDevelopmentValue(value)) {
            problems.add(name + " is a development key committed in the repository; generate a new key pair");
        }
    }

    /** A list setting (comma-separated or indexed); empty when missing or unresolvable. */
    private static List<String> list(ConfigurableEnvironment env, String name) {
        try {
            List<String> values = Binder.get(env).bind(name, Bindable.listOf(String.class)).orElse(List.of()).stream()
                    .filter(text -> !text.isBlank())
                    .toList();
            // The binder leaves a placeholder of an unset environment variable as it is.
            return values.stream().anyMatch(text -> text.contains("${")) ? List.of() : values;
        } catch (RuntimeException unresolvedPlaceholder) {
            return List.of();
        }
    }

    /** Adds the secret's problem, if any; answers whether it is fine. */
    private static boolean secret(PropertyResolver env, String name, int minLength, List<String> problems) {
        String value = value(env, name);
        if (value == null || value.isBlank()) {
            problems.add(name + " is not set");
        } else if (DevelopmentSecrets.isDevelopmentValue(value)) {
            problems.add(name + " is a development value committed in the repository; generate a new one");
        } else if (value.getBytes(StandardCharsets.UTF_8).length < minLength) {
            problems.add(name + " is shorter than " + minLength + " bytes");
        } else {
            return true;
        }
        return false;
    }

    private static void encryptionKey(PropertyResolver env, String name, List<String> problems) {
        String value = value(env, name);
        if (value == null || value.isBlank()) {
            problems.add(name + " is not set");
            return;
        }
        if (DevelopmentSecrets.isDevelopmentValue(value)) {
            problems.add(name + " is a development value committed in the repository; generate a new one");
            return;
        }
        try {
            if (Base64.getDecoder().decode(value.strip()).length != ENCRYPTION_KEY_BYTES) {
                problems.add(name + " must be Base64 of " + ENCRYPTION_KEY_BYTES + " bytes");
            }
        } catch (IllegalArgumentException e) {
            problems.add(name + " must be Base64 of " + ENCRYPTION_KEY_BYTES + " bytes");
        }
    }

    /** The property's value, or null when it is missing or refers to an environment variable that is not set. */
    private static String value(PropertyResolver env, String name) {
        try {
            return env.getProperty(name);
        } catch (IllegalArgumentException unresolvedPlaceholder) {
            return null;
        }
    }
}
