package dev.cryptopay.chainwatcher.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** Settings of the chain watcher. */
@Validated
@ConfigurationProperties("chain-watcher")
public record ChainWatcherProperties(
        /** payment-links-service's address inside the network. */
        @NotBlank String paymentLinksUrl,
        /** The topic payment events arrive on. */
        @NotBlank @DefaultValue("payment-links.events") String topic,
        /** How long after expiry a payment is still looked for and reported (as late). */
        @NotNull @DefaultValue("24h") Duration lateWindow,
        /** Whether this instance scans chains (several instances share the work through leases). */
        @DefaultValue("true") boolean scanEnabled,
        /** How long an instance owns a chain after its last pass; another instance takes over after it. */
        @NotNull @DefaultValue("30s") Duration leaseDuration,
        /** Pause after a pass that failed (an RPC error): the same blocks are tried again, none is skipped. */
        @NotNull @DefaultValue("2s") Duration retryDelay,
        @NotNull @Valid List<Network> networks) {

    /**
     * One chain to watch.
     *
     * @param name          the network name payment-links-service gives links (reports carry it)
     * @param confirmations blocks (including the transfer's own) before a transfer counts as confirmed
     * @param reorgWindow   how many recent blocks are re-checked for reorganisations
     * @param maxBlockRange at most this many blocks per eth_getLogs call
     * @param startBlocksBack on first start, how far behind the head scanning begins
     */
    public record Network(
            @NotBlank String name,
            @Positive long chainId,
            @NotBlank String rpcUrl,
            @Min(1) @Max(1000) @DefaultValue("12") int confirmations,
            @NotNull @DefaultValue("4s") Duration pollInterval,
            @Min(1) @Max(10000) @DefaultValue("128") int reorgWindow,
            @Min(1) @Max(10000) @DefaultValue("500") int maxBlockRange,
            @Min(0) @DefaultValue("128") int startBlocksBack) {}

    public Optional<Network> network(long chainId) {
        return networks.stream().filter(network -> network.chainId() == chainId).findFirst();
    }
}
