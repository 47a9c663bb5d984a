package dev.cryptopay.chainwatcher.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
        @NotNull @Valid List<Network> networks,
        /** The keeper, which collects due subscriptions on the networks with a keeper key. */
        @NotNull @Valid @DefaultValue Keeper keeper) {

    /**
     * One chain to watch.
     *
     * @param name          the network name payment-links-service gives links (reports carry it)
     * @param confirmations blocks (including the transfer's own) before a transfer counts as confirmed
     * @param reorgWindow   how many recent blocks are re-checked for reorganisations
     * @param maxBlockRange at most this many blocks per eth_getLogs call (fewer after the node refused a range as too
     *     large)
     * @param startBlocksBack on first start, how far behind the head scanning begins
     * @param lookBackBlocks how far before the cursor a newly learned address is looked for at most: the longest delay
     *     between a link's creation and its event reaching the watcher, in blocks (1800: an hour of 2-second blocks).
     *     A watch whose link was created before the oldest of these blocks is counted late
     *     ({@code chain_watcher_watches_late_total}): payments before that block are not found
     * @param tokens the token contracts followed on this chain, whoever a transfer of them goes to, so that a transfer
     *     of another token than the link's to a deposit address is seen too; tokens that links name are followed as
     *     well (with the decimals their events give)
     * @param subscriptionContract the subscription contract ({@code CryptopaySubscriptions}) on this chain, whose logs
     *     are followed and reported to subscriptions-service; blank or absent when the chain has none
     * @param keeperKeyFile a file holding the keeper's private key on this chain (0x-hex, 32 bytes): a key that only
     *     pays gas for collect; blank or absent: no keeper on this chain
     * @param keeperMinBalance the keeper key's balance (in the chain's native coin) below which it is reported low
     *     ({@code chain_watcher_keeper_min_balance_wei}, alert ChainWatcherKeeperBalanceLow)
     * @param keeperMaxFeeGwei the most the keeper offers per gas on this chain, in gwei: EIP-1559's
     *     {@code maxFeePerGas} or a legacy gas price. New collects offer at most this, and a stuck one is not replaced
     *     once a raise would pass it ({@code chain_watcher_keeper_fee_ceiling_total}, alert ChainWatcherKeeperFeeCeiling)
     * @param keeperMaxPriorityFeeGwei the most the keeper tips per gas ({@code maxPriorityFeePerGas}), in gwei
     * @param nativePriceFeed the USD price feed (Chainlink {@code AggregatorV3Interface}) of the chain's native coin;
     *     blank or absent: native-coin payments are not valued
     * @param priceMaxAge a feed answer last updated longer ago than this (by chain time) is not trusted: the value is
     *     then unknown. Chainlink's USD feeds update at least daily (heartbeat), hence 26 hours
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
            @Min(1) @Max(1000000) @DefaultValue("1800") int lookBackBlocks,
            @NotNull @Valid @DefaultValue List<Token> tokens,

            @Pattern(regexp = "\\s*|0x[0-9a-fA-F]{40}", message = "must be a 0x address of 20 bytes, or blank")
            String subscriptionContract,

            String keeperKeyFile,
            @NotNull @DecimalMin("0") @DefaultValue("0.05") BigDecimal keeperMinBalance,

            @NotNull @DecimalMin("0.000000001") @DefaultValue("500")
            BigDecimal keeperMaxFeeGwei,

            @NotNull @DecimalMin("0.000000001") @DefaultValue("50")
            BigDecimal keeperMaxPriorityFeeGwei,

            @Pattern(regexp = "\\s*|0x[0-9a-fA-F]{40}", message = "must be a 0x address of 20 bytes, or blank")
            String nativePriceFeed,

            @NotNull @DefaultValue("26h") Duration priceMaxAge) {

        /** The configured tokens by contract (lower-case). */
        public Map<String, Token> tokensByContract() {
            Map<String, Token> byContract = new LinkedHashMap<>();
            tokens.forEach(token -> byContract.putIfAbsent(token.contract(), token));
            return byContract;
        }

        /** The native coin's price feed, lower-case, or null when it has none. */
        public String nativeFeed() {
            return nativePriceFeed == null || nativePriceFeed.isBlank()
                    ? null
                    : nativePriceFeed.strip().toLowerCase(Locale.ROOT);
        }

        /** The subscription contract, lower-case, or empty when the chain has none. */
        public Optional<String> contract() {
            return subscriptionContract == null || subscriptionContract.isBlank()
                    ? Optional.empty()
                    : Optional.of(subscriptionContract.toLowerCase(Locale.ROOT));
        }

        /** The keeper key file, or empty when the chain has no keeper. */
        public Optional<Path> keeperKey() {
            return keeperKeyFile == null || keeperKeyFile.isBlank()
                    ? Optional.empty()
                    : Optional.of(Path.of(keeperKeyFile.strip()));
        }

        /** {@code keeperMaxFeeGwei} in wei per gas. */
        public BigInteger keeperMaxFeeWei() {
            return keeperMaxFeeGwei.movePointRight(9).toBigInteger();
        }

        /** {@code keeperMaxPriorityFeeGwei} in wei per gas. */
        public BigInteger keeperMaxPriorityFeeWei() {
            return keeperMaxPriorityFeeGwei.movePointRight(9).toBigInteger();
        }

        /** {@code keeperMinBalance} in wei (the native coin has 18 decimals on every EVM chain). */
        public BigInteger keeperMinBalanceWei() {
            return keeperMinBalance.movePointRight(18).toBigInteger();
        }
    }

    /**
     * A token contract the watcher follows on a network.
     *
     * @param address  the ERC-20 contract (0x, any case)
     * @param decimals its {@code decimals()}: amounts of it are reported as base units / 10^decimals
     * @param symbol   its symbol, for log lines (optional)
     * @param priceFeed its USD price feed (Chainlink {@code AggregatorV3Interface}), which values payments in it at
     *                 confirmation; blank or absent: none
     * @param usdStablecoin a US dollar stablecoin: without a feed, one unit counts one dollar
     */
    public record Token(
            @NotBlank @Pattern(regexp = "0x[0-9a-fA-F]{40}", message = "must be a 0x address of 20 bytes")
            String address,

            @NotNull @Min(0) @Max(36) Integer decimals,
            String symbol,

            @Pattern(regexp = "\\s*|0x[0-9a-fA-F]{40}", message = "must be a 0x address of 20 bytes, or blank")
            String priceFeed,

            @DefaultValue("false") boolean usdStablecoin) {

        /** The contract, lower-case. */
        public String contract() {
            return address.toLowerCase(Locale.ROOT);
        }

        /** The price feed, lower-case, or null when the token has none. */
        public String feed() {
            return priceFeed == null || priceFeed.isBlank()
                    ? null
                    : priceFeed.strip().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The keeper's settings (every chain's; the key is per network). Times are chain times: the head block's
     * timestamp decides what is due, never this host's clock.
     *
     * @param enabled          whether this instance runs keepers at all
     * @param retryInterval    how often a refused pull (allowance or balance too small) is tried again within the
     *                         period's grace
     * @param stuckAfter       how long a sent collect may stay unmined before it is replaced (same nonce, fees raised
     *                         by at least 12.5 %)
     * @param maxSendsPerPass  at most this many transactions (new collects and replacements) per pass
     * @param maxChecksPerPass at most this many due subscriptions read and simulated per pass, as many stale ones
     *                         read again (a log of them came), and as many sent transactions looked at
     * @param collectGasLimit  the gas limit of a collect, also used when simulating it: generous, since a collect
     *                         starved of gas changes nothing yet costs the gas
     * @param giveUpAfter      a subscription whose collects failed this many times in a row (simulations that would
     *                         revert, collects that reverted, collects sent only to record missed periods) is given up
     *                         on until a log of it comes; each failure first puts its next look further away
     *                         ({@code retry-interval} doubled each time, at most a day)
     */
    public record Keeper(
            @DefaultValue("true") boolean enabled,
            @NotNull @DefaultValue("60s") Duration retryInterval,
            @NotNull @DefaultValue("3m") Duration stuckAfter,
            @Min(1) @Max(1000) @DefaultValue("10") int maxSendsPerPass,
            @Min(1) @Max(10000) @DefaultValue("100") int maxChecksPerPass,

            @Min(21000) @Max(30000000) @DefaultValue("300000")
            long collectGasLimit,

            @Min(1) @Max(1000) @DefaultValue("5") int giveUpAfter) {}

    public Optional<Network> network(long chainId) {
        return networks.stream().filter(network -> network.chainId() == chainId).findFirst();
    }
}
