package dev.cryptopay.notifications.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** Settings of the notification service. */
@Validated
@ConfigurationProperties("notifications")
public record NotificationProperties(
        /** The envelope sender and From address of every e-mail (the merchant's name is shown with it). */
        @NotBlank @DefaultValue("notifications@cryptopay.local")
        String fromAddress,
        /** The platform's name, shown after the merchant's: "Café & Co via CryptoPay". */
        @NotBlank @DefaultValue("CryptoPay") String platformName,
        /** Topics consumed: every producing service's {@code <service>.events}. */
        @NotBlank @DefaultValue(".*\\.events") String topicPattern,
        /** Kafka consumer group of this service. */
        @NotBlank @DefaultValue("notification-service") String consumerGroup,
        /**
         * Block explorers by network name, each a transaction address with {@code {hash}} where the hash goes
         * ({@code https://etherscan.io/tx/{hash}}); a network without one shows the hash alone.
         */
        @NotNull @DefaultValue Map<String, String> explorers,
        /**
         * JSON-RPC addresses by chain id, for the reminders' balance and allowance reads; a chain without one (or a
         * blank one) gets reminders without the on-chain check.
         */
        @NotNull @DefaultValue Map<Long, String> chains,
        @Valid @NotNull @DefaultValue Sending sending,
        @Valid @NotNull @DefaultValue Reminders reminders) {

    /** How e-mails are sent. */
    public record Sending(
            /** Whether this instance runs the sender (several instances share the work). */
            @DefaultValue("true") boolean enabled,
            /**
             * The waits after each failed attempt: after the first failure 1 min, then 10 min, 1 h and 6 h; a failure
             * after the last is given up.
             */
            @NotEmpty @DefaultValue({"1m", "10m", "1h", "6h"})
            List<Duration> retryDelays,
            /** Pause between scans for due e-mails. */
            @NotNull @DefaultValue("1s") Duration pollInterval,
            /** Most e-mails claimed per scan. */
            @Min(1) @DefaultValue("50") int batchSize,
            /** How long a claimed e-mail is reserved for this instance before another may take it. */
            @NotNull @DefaultValue("2m") Duration claimLease) {}

    /** The reminders before subscriptions' payments. */
    public record Reminders(
            /** Whether this instance runs the reminder loop (several instances share the work). */
            @DefaultValue("true") boolean enabled,
            /** How long before a payment falls due its reminder goes out. */
            @NotNull @DefaultValue("3d") Duration lead,
            /** Pause between scans for due reminders. */
            @NotNull @DefaultValue("30s") Duration pollInterval,
            /** Most reminders claimed per scan. */
            @Min(1) @DefaultValue("50") int batchSize,
            /** How long a claimed reminder is reserved for this instance; also the wait after a failed chain read. */
            @NotNull @DefaultValue("2m") Duration claimLease) {}
}
