package dev.cryptopay.service.production;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.springframework.core.env.PropertyResolver;

/**
 * What the {@code production} profile refuses, as a list of problems, each naming its setting. Pure: reads only the
 * given properties, so it is tested without starting anything.
 */
public final class ProductionSafety {

    /** The profile under which {@link ProductionSafetyListener} refuses unsafe settings. */
    public static final String PROFILE = "production";

    /** The application that issues internal tokens instead of checking them, with its own secrets and Redis. */
    static final String GATEWAY = "gateway";

    static final int MIN_INTERNAL_SECRET_BYTES = 32;
    static final int MIN_ADMIN_TOKEN_CHARS = 24;
    static final int ENCRYPTION_KEY_BYTES = 32;

    private ProductionSafety() {}

    /** Every unsafe setting found; empty when the configuration may run in production. */
    public static List<String> problems(PropertyResolver env) {
        List<String> problems = new ArrayList<>();
        boolean gateway = GATEWAY.equals(value(env, "spring.application.name"));
        boolean internalAuth = !"false".equalsIgnoreCase(value(env, "internal-auth.enabled"));
        if (!internalAuth && !gateway) {
            problems.add("internal-auth.enabled=false: every service must check the gateway's X-Internal-Auth token");
        }
        if (internalAuth) {
            secret(env, "internal-auth.secret", MIN_INTERNAL_SECRET_BYTES, problems);
        }
        if (gateway) {
            secret(env, "gateway.internal-auth.secret", MIN_INTERNAL_SECRET_BYTES, problems);
            secret(env, "gateway.admin.token", MIN_ADMIN_TOKEN_CHARS, problems);
            if (!"true".equalsIgnoreCase(value(env, "gateway.redis.enabled"))) {
                problems.add("gateway.redis.enabled must be true: production runs several gateway instances "
                        + "(HPA), and without Redis each keeps its own rate limits and replay guard");
            }
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

    private static void secret(PropertyResolver env, String name, int minLength, List<String> problems) {
        String value = value(env, name);
        if (value == null || value.isBlank()) {
            problems.add(name + " is not set");
        } else if (DevelopmentSecrets.isDevelopmentValue(value)) {
            problems.add(name + " is a development value committed in the repository; generate a new one");
        } else if (value.getBytes(StandardCharsets.UTF_8).length < minLength) {
            problems.add(name + " is shorter than " + minLength + " bytes");
        }
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
