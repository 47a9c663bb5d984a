package dev.cryptopay.gateway.identity;

import dev.cryptopay.auth.internal.InternalIdentityToken;
import jakarta.validation.constraints.NotBlank;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The gateway's own secret as the internal caller {@code gateway}, used to sign the {@code X-Internal-Auth} token on
 * every forwarded request.
 *
 * @param secret at least 32 bytes (UTF-8); the same value as the services' {@code internal-auth.secret} (the
 *               gateway's secret there), and nobody else's. Required: the gateway does not start without it.
 */
@Validated
@ConfigurationProperties("gateway.internal-auth")
public record IdentityProperties(@NotBlank String secret) {

    public IdentityProperties {
        if (secret != null
                && !secret.isBlank()
                && secret.getBytes(StandardCharsets.UTF_8).length < InternalIdentityToken.MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("gateway.internal-auth.secret must be at least "
                    + InternalIdentityToken.MIN_SECRET_BYTES + " bytes");
        }
    }

    /** Hides the secret from logs and failure analysis output. */
    @Override
    public String toString() {
        return "IdentityProperties[secret=<redacted>]";
    }
}
