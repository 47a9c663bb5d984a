package dev.cryptopay.service.outbox;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** The relay that moves outbox rows to Kafka. */
@Validated
@ConfigurationProperties("outbox")
public record OutboxProperties(
        /** Whether this instance runs the relay loop (several instances may; one publishes at a time). */
        @DefaultValue("true") boolean relayEnabled,
        /** Pause between polls when the outbox is empty or Kafka is failing. */
        @NotNull @DefaultValue("200ms") Duration pollInterval,
        /** Most rows published in one transaction. */
        @Min(1) @DefaultValue("200") int batchSize,
        /** Longest wait for Kafka to acknowledge a batch before it is retried. */
        @NotNull @DefaultValue("15s") Duration sendTimeout,
        /** How long published rows are kept for inspection before they are purged. */
        @NotNull @DefaultValue("7d") Duration retention) {}
