package dev.cryptopay.webhooks.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** Settings of the webhook service. */
@Validated
@ConfigurationProperties("webhooks")
public record WebhookProperties(
        /** Base64 of 32 random bytes; encrypts endpoint secrets at rest (AES-256-GCM). */
        @NotBlank String secretEncryptionKey,
        /** Whether test-mode endpoints may use plain http:// (live mode always needs https://). */
        @DefaultValue("true") boolean allowHttpInTestMode,
        /** Most endpoints one merchant may register per mode. */
        @Min(1) @DefaultValue("20") int maxEndpointsPerMerchant,
        /** Topics consumed: every producing service's {@code <service>.events}. */
        @NotBlank @DefaultValue(".*\\.events") String topicPattern,
        /** Kafka consumer group of this service. */
        @NotBlank @DefaultValue("webhook-service") String consumerGroup,
        /** How often consumer lag and the delivery backlog are measured for metrics. */
        @NotNull @DefaultValue("15s") Duration metricsInterval,
        @Valid @NotNull @DefaultValue Delivery delivery,
        @Valid @NotNull @DefaultValue Endpoints endpoints) {

    /** How deliveries are attempted. */
    public record Delivery(
            /** Whether this instance runs the delivery scheduler (several instances share the work). */
            @DefaultValue("true") boolean enabled,
            /** When each attempt is due, measured from the first: attempt 1 at the first offset, and so on. */
            @NotEmpty @DefaultValue({"0s", "5m", "30m", "2h", "24h"})
            List<Duration> retrySchedule,
            /** Random spread added to each retry, as a fraction of its delay (0.05 = up to 5 % later). */
            @DecimalMin("0") @DecimalMax("1") @DefaultValue("0.05")
            double jitter,
            /** Time allowed for one attempt, connection and response together. */
            @NotNull @DefaultValue("30s") Duration timeout,
            /** Longest Retry-After from a receiver that is honoured. */
            @NotNull @DefaultValue("1h") Duration maxRetryAfter,
            /** Local development only: deliver to loopback, private and link-local addresses. */
            @DefaultValue("false") boolean allowPrivateAddresses,
            /** Pause between scans for due deliveries. */
            @NotNull @DefaultValue("500ms") Duration pollInterval,
            /** Most deliveries claimed per scan. */
            @Min(1) @DefaultValue("100") int batchSize,
            /** Most attempts in flight at once per instance. */
            @Min(1) @DefaultValue("32") int concurrency,
            /** Most attempts in flight at once to one endpoint, over every instance. */
            @Min(1) @DefaultValue("4") int maxInFlightPerEndpoint,
            /** Most attempts in flight at once to one merchant's endpoints of one mode, over every instance. */
            @Min(1) @DefaultValue("16") int maxInFlightPerMerchant,
            /** Most failed deliveries one recover call schedules again (the caller calls again while has_more). */
            @Min(1) @DefaultValue("1000") int recoverBatch) {

        /** How long a claimed delivery is reserved for this instance before another may take it. */
        public Duration claimLease() {
            return timeout.plusSeconds(30);
        }
    }

    /** What happens to endpoints that keep failing. */
    public record Endpoints(
            /** How long every attempt to an endpoint must have failed, with no success between, before it is disabled. */
            @NotNull @DefaultValue("5d") Duration disableAfter,
            /** Fewest failed attempts in a row that may disable an endpoint (however long they span). */
            @Min(1) @DefaultValue("10") int disableMinFailures) {}
}
