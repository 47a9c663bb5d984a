package dev.cryptopay.service.identity;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalTokenVerifier;
import dev.cryptopay.auth.keys.VerificationKey;
import dev.cryptopay.service.apidocs.ApiDescriptionRoute;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Who may call this service and how fresh their tokens must be. Every caller signs with a private key of its own; the
 * service holds only the public keys of the callers it accepts, so it can check their tokens but never make one, and
 * accepts only tokens made for it (its audience).
 *
 * <pre>
 * internal-auth:
 *   audience: payment-links-service                     # default: spring.application.name
 *   callers:
 *     gateway:
 *       public-keys: ${GATEWAY_INTERNAL_AUTH_PUBLIC_KEYS}
 *     chain-watcher:
 *       public-keys: ${CHAIN_WATCHER_INTERNAL_AUTH_PUBLIC_KEYS}
 * </pre>
 *
 * A caller's {@code public-keys} are one or two Ed25519 public keys (Base64 of the SPKI DER, or PEM), separated by
 * commas in an environment variable: two while the caller changes its key. Caller ids are map keys with a dash, which
 * environment variables cannot spell: give keys through placeholders in {@code application.yml}, as above.
 */
@Validated
@ConfigurationProperties("internal-auth")
public record InternalAuthProperties(
        /** This service's id, which tokens must name as their audience; null: spring.application.name. */
        String audience,
        /** Every caller this service accepts, by caller id, each with its public keys. */
        @NotNull @DefaultValue Map<String, Caller> callers,
        /** Oldest token accepted (clock skew between hosts included). */
        @NotNull @DefaultValue("10s") Duration maxAge,
        /** Path patterns served without a token (health probes, metrics, the service's API description). */
        @NotNull @DefaultValue({"/actuator/**", ApiDescriptionRoute.PATH})
        List<String> openPaths) {

    /**
     * One caller's settings.
     *
     * @param publicKeys one or two Ed25519 public keys: the caller's, and during a change of key its next one
     */
    public record Caller(List<String> publicKeys) {}

    /**
     * @throws IllegalArgumentException for a malformed caller id or audience, a caller without keys or with more than
     *                                  two, a key that is not an Ed25519 public key, one key for two callers, or a
     *                                  non-positive maximum age
     */
    public InternalAuthProperties {
        callers = callers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(callers));
        if (maxAge != null && (maxAge.isNegative() || maxAge.isZero())) {
            throw new IllegalArgumentException("internal-auth.max-age must be positive");
        }
        if (audience != null && !InternalCallers.isWellFormed(audience)) {
            throw new IllegalArgumentException("internal-auth.audience is not a well-formed service id: " + audience);
        }
        verifier(audience == null ? "any" : audience, callers);
    }

    /**
     * The verifier of this service's tokens.
     *
     * @param defaultAudience the service's id when {@link #audience()} is not set (its application name)
     */
    public InternalTokenVerifier verifier(String defaultAudience) {
        return verifier(audience == null ? defaultAudience : audience, callers);
    }

    private static InternalTokenVerifier verifier(String audience, Map<String, Caller> callers) {
        Map<String, List<VerificationKey>> keys = new LinkedHashMap<>();
        callers.forEach((id, caller) -> {
            String setting = "internal-auth.callers." + id + ".public-keys";
            if (!InternalCallers.isWellFormed(id)) {
                throw new IllegalArgumentException("internal-auth.callers: malformed caller id '" + id + "'");
            }
            List<String> texts = caller == null || caller.publicKeys() == null
                    ? List.of()
                    : caller.publicKeys().stream()
                            .filter(text -> text != null && !text.isBlank())
                            .toList();
            if (texts.isEmpty()) {
                throw new IllegalArgumentException(setting + " is empty");
            }
            try {
                keys.put(id, texts.stream().map(VerificationKey::parse).toList());
            } catch (IllegalArgumentException notAKey) {
                throw new IllegalArgumentException(setting + ": " + notAKey.getMessage(), notAKey);
            }
        });
        try {
            return new InternalTokenVerifier(audience, keys);
        } catch (IllegalArgumentException refused) {
            throw new IllegalArgumentException("internal-auth: " + refused.getMessage(), refused);
        }
    }
}
