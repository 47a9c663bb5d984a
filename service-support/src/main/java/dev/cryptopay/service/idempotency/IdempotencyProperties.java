package dev.cryptopay.service.idempotency;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** The Idempotency-Key store. */
@Validated
@ConfigurationProperties("idempotency")
public record IdempotencyProperties(
        /** How long a key is remembered; a key older than this is claimed afresh. */
        @DefaultValue("24h") @NotNull Duration retention,
        /** How often keys past retention are deleted. */
        @DefaultValue("10m") @NotNull Duration purgeInterval) {}
