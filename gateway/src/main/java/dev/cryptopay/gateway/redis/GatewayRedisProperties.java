package dev.cryptopay.gateway.redis;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Optional Redis shared by all gateway instances for rate-limit buckets and the replay cache.
 *
 * @param enabled   when true, rate limits and the replay guard live in Redis, shared by every instance; when false
 *                  (default) each instance keeps them in memory.
 * @param uri       Lettuce URI, e.g. {@code redis://:password@host:6379/0} or {@code rediss://…}. Default
 *                  {@code redis://127.0.0.1:6379}.
 * @param keyPrefix prefix of every key the gateway writes, so several deployments (or test runs) can share one
 *                  Redis. Default {@code gateway:}.
 * @param timeout   longest wait for one Redis command (and for connecting); past it the request is refused with 503.
 *                  A rate-limit decision, which may retry under contention, may take up to ten times this. Default
 *                  500 ms.
 */
@Validated
@ConfigurationProperties("gateway.redis")
public record GatewayRedisProperties(
        boolean enabled,
        @NotBlank String uri,
        @NotNull String keyPrefix,
        @NotNull Duration timeout) {

    public GatewayRedisProperties {
        uri = uri == null ? "redis://127.0.0.1:6379" : uri;
        keyPrefix = keyPrefix == null ? "gateway:" : keyPrefix;
        timeout = timeout == null ? Duration.ofMillis(500) : timeout;
    }

    /** Hides a password that may be part of the URI. */
    @Override
    public String toString() {
        return "GatewayRedisProperties[enabled=" + enabled + ", keyPrefix=" + keyPrefix + ", timeout=" + timeout + "]";
    }
}
