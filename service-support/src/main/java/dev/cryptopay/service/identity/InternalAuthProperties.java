package dev.cryptopay.service.identity;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalIdentityToken;
import dev.cryptopay.service.apidocs.ApiDescriptionRoute;
import jakarta.validation.constraints.NotNull;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Who may call this service and how fresh their tokens must be. Every caller has a secret of its own; the service
 * holds only the secrets of the callers it accepts.
 *
 * <pre>
 * internal-auth:
 *   secret: ${INTERNAL_AUTH_SECRET}                 # the gateway's (shorthand for callers.gateway.secret)
 *   callers:
 *     chain-watcher:
 *       secret: ${CHAIN_WATCHER_INTERNAL_AUTH_SECRET}
 * </pre>
 *
 * Caller ids are map keys with a dash, which environment variables cannot spell: give secrets through placeholders in
 * {@code application.yml}, as above.
 */
@Validated
@ConfigurationProperties("internal-auth")
public record InternalAuthProperties(
        /** The gateway's secret, at least 32 bytes: shorthand for internal-auth.callers.gateway.secret. */
        String secret,
        /** Every other caller this service accepts, by caller id, each with its own secret of at least 32 bytes. */
        @NotNull @DefaultValue Map<String, Caller> callers,
        /** Oldest token accepted (clock skew between hosts included). */
        @NotNull @DefaultValue("10s") Duration maxAge,
        /** Path patterns served without a token (health probes, metrics, the service's API description). */
        @NotNull @DefaultValue({"/actuator/**", ApiDescriptionRoute.PATH})
        List<String> openPaths) {

    /**
     * One caller's settings.
     *
     * @param secret the caller's own secret, at least 32 bytes (UTF-8)
     */
    public record Caller(String secret) {

        /** Hides the secret from logs and failure analysis output. */
        @Override
        public String toString() {
            return "Caller[secret=<redacted>]";
        }
    }

    /**
     * @throws IllegalArgumentException for a malformed caller id, a missing or short secret, a non-positive maximum
     *                                  age, or two different gateway secrets
     */
    public InternalAuthProperties {
        callers = callers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(callers));
        if (maxAge != null && (maxAge.isNegative() || maxAge.isZero())) {
            throw new IllegalArgumentException("internal-auth.max-age must be positive");
        }
        callerSecrets(secret, callers);
    }

    /** Every accepted caller's secret by caller id: {@link #callers()} plus {@link #secret()} as the gateway's. */
    public Map<String, String> callerSecrets() {
        return callerSecrets(secret, callers);
    }

    private static Map<String, String> callerSecrets(String gatewaySecret, Map<String, Caller> callers) {
        Map<String, String> secrets = new LinkedHashMap<>();
        callers.forEach((id, caller) -> {
            if (!InternalCallers.isWellFormed(id)) {
                throw new IllegalArgumentException("internal-auth.callers: malformed caller id '" + id + "'");
            }
            secrets.put(
                    id, checked("internal-auth.callers." + id + ".secret", caller == null ? null : caller.secret()));
        });
        if (gatewaySecret != null) {
            String gateway = checked("internal-auth.secret", gatewaySecret);
            String configured = secrets.putIfAbsent(InternalCallers.GATEWAY, gateway);
            if (configured != null && !configured.equals(gateway)) {
                throw new IllegalArgumentException(
                        "internal-auth.secret and internal-auth.callers.gateway.secret differ: set only one");
            }
        }
        return Collections.unmodifiableMap(secrets);
    }

    private static String checked(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is empty");
        }
        if (value.getBytes(StandardCharsets.UTF_8).length < InternalIdentityToken.MIN_SECRET_BYTES) {
            throw new IllegalArgumentException(
                    name + " must be at least " + InternalIdentityToken.MIN_SECRET_BYTES + " bytes");
        }
        return value;
    }

    /** Hides the secrets from logs and failure analysis output. */
    @Override
    public String toString() {
        return "InternalAuthProperties[callers=" + callerSecrets().keySet() + ", maxAge=" + maxAge + ", openPaths="
                + openPaths + "]";
    }
}
