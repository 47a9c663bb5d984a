package dev.cryptopay.service.identity;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** How a service checks that a request came through the gateway. */
@Validated
@ConfigurationProperties("internal-auth")
public record InternalAuthProperties(
        /** Secret shared with the gateway; at least 32 bytes. */
        @NotBlank String secret,
        /** Oldest token accepted. */
        @NotNull @DefaultValue("60s") Duration maxAge,
        /** Path patterns served without a token (health probes, metrics). */
        @NotNull @DefaultValue("/actuator/**") List<String> openPaths) {}
