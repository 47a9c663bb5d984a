package dev.cryptopay.gateway.admin;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The admin API, served on its own port and never on the merchant port.
 *
 * @param enabled whether to start the admin HTTP server. Default true.
 * @param host    address the admin server binds to. Default {@code 127.0.0.1} so it is not reachable from outside the
 *                host by accident; set {@code 0.0.0.0} in a container and keep the port off the public network.
 * @param port    admin port; 0 picks a free one (tests). Default 8090.
 * @param token   bearer token required on every admin call, at least 24 characters. Required when enabled.
 */
@Validated
@ConfigurationProperties("gateway.admin")
public record AdminProperties(
        Boolean enabled,
        @NotBlank String host,
        @Min(0) @Max(65535) Integer port,
        String token) {

    /** Shortest admin token accepted. */
    public static final int MIN_TOKEN_LENGTH = 24;

    public AdminProperties {
        enabled = enabled == null ? Boolean.TRUE : enabled;
        host = host == null ? "127.0.0.1" : host;
        port = port == null ? 8090 : port;
        if (enabled && (token == null || token.strip().length() < MIN_TOKEN_LENGTH)) {
            throw new IllegalArgumentException("gateway.admin.token must be set (at least " + MIN_TOKEN_LENGTH
                    + " characters) while gateway.admin.enabled is true");
        }
    }

    /** Hides the token. */
    @Override
    public String toString() {
        return "AdminProperties[enabled=" + enabled + ", host=" + host + ", port=" + port + ", token=<redacted>]";
    }
}
