package dev.cryptopay.chainwatcher.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
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
        /** subscriptions-service's address inside the network (reports of the subscription contract's logs). */
        @NotBlank String subscriptionsUrl,
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
     * @param subscriptionContract the subscription contract ({@code CryptopaySubscriptions}) on this chain, whose logs
     *     are followed and reported to subscriptions-service; blank or absent when the chain has none
     */
    public record Network(
            @NotBlank String name,
            @Positive long chainId,
            @NotBlank String rpcUrl,
            @Min(1) @Max(1000) @DefaultValue("12") int confirmations,
            @NotNull @DefaultValue("4s") Duration pollInterval,
            @Min(1) @Max(10000) @DefaultValue("128") int reorgWindow,
            @Min(1) @Max(10000) @DefaultValue("500") int maxBlockRange,
            @Min(0) @DefaultValue("128") int startBlocksBack,

            @Pattern(regexp = "\\s*|0x[0-9a-fA-F]{40}", message = "must be a 0x address of 20 bytes, or blank")
            String subscriptionContract) {

        /** The subscription contract, lower-case, or empty when the chain has none. */
        public Optional<String> contract() {
            return subscriptionContract == null || subscriptionContract.isBlank()
                    ? Optional.empty()
                    : Optional.of(subscriptionContract.toLowerCase(Locale.ROOT));
        }
    }

    public Optional<Network> network(long chainId) {
        return networks.stream().filter(network -> network.chainId() == chainId).findFirst();
    }
}
