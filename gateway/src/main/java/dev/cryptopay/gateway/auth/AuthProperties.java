package dev.cryptopay.gateway.auth;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * How signed merchant requests are checked.
 *
 * @param requireQueryInSignedPath when true, a request with a query string must have signed {@code path?query};
 *                                 when false (default) signing the bare path is accepted too, for older clients.
 * @param timestampTolerance       how far {@code X-API-Timestamp} may be from the gateway clock, either way.
 *                                 Default 5 min. Replayed signatures are remembered for twice this long.
 * @param replayCacheSize          most signatures the in-memory replay guard remembers (used when Redis is off);
 *                                 beyond it the oldest are forgotten early. Default 100000.
 */
@Validated
@ConfigurationProperties("gateway.auth")
public record AuthProperties(
        boolean requireQueryInSignedPath,
        @NotNull Duration timestampTolerance,
        @Positive int replayCacheSize) {

    public AuthProperties {
        timestampTolerance = timestampTolerance == null ? Duration.ofMinutes(5) : timestampTolerance;
        replayCacheSize = replayCacheSize == 0 ? 100_000 : replayCacheSize;
    }

    /** How long a used signature is remembered: twice the tolerance, so it outlives the timestamp's validity. */
    public Duration replayWindow() {
        return timestampTolerance.multipliedBy(2);
    }
}
