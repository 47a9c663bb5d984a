package dev.cryptopay.chainwatcher.report;

import dev.cryptopay.auth.internal.InternalIdentityToken;
import jakarta.validation.constraints.NotBlank;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The chain watcher's own secret as the internal caller {@code chain-watcher}: it signs the token of every report.
 * The services it reports to, payment-links-service and subscriptions-service, hold the same value as
 * {@code internal-auth.callers.chain-watcher.secret}; no one else does, and the chain watcher holds no other caller's
 * secret (not the gateway's).
 *
 * @param secret at least 32 bytes (UTF-8). Required: the watcher does not start without it.
 */
@Validated
@ConfigurationProperties("chain-watcher.internal-auth")
public record ReportAuthProperties(@NotBlank String secret) {

    public ReportAuthProperties {
        if (secret != null
                && !secret.isBlank()
                && secret.getBytes(StandardCharsets.UTF_8).length < InternalIdentityToken.MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("chain-watcher.internal-auth.secret must be at least "
                    + InternalIdentityToken.MIN_SECRET_BYTES + " bytes");
        }
    }

    /** Hides the secret from logs and failure analysis output. */
    @Override
    public String toString() {
        return "ReportAuthProperties[secret=<redacted>]";
    }
}
