package dev.cryptopay.chainwatcher.config;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Token;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

/**
 * A configured network with some settings changed, for tests that run a scanner or a keeper against it otherwise
 * (through a proxy, without a token, with another price age or fee ceiling): the rest exactly as configured.
 */
public record TestNetworks(
        String rpcUrl,
        List<Token> tokens,
        String keeperKeyFile,
        BigDecimal keeperMaxFeeGwei,
        BigDecimal keeperMaxPriorityFeeGwei,
        Duration priceMaxAge) {

    /** Every setting of {@code network}, to change with the {@code with…} methods. */
    public static TestNetworks of(Network network) {
        return new TestNetworks(
                network.rpcUrl(),
                network.tokens(),
                network.keeperKeyFile(),
                network.keeperMaxFeeGwei(),
                network.keeperMaxPriorityFeeGwei(),
                network.priceMaxAge());
    }

    public TestNetworks withRpcUrl(String url) {
        return new TestNetworks(url, tokens, keeperKeyFile, keeperMaxFeeGwei, keeperMaxPriorityFeeGwei, priceMaxAge);
    }

    public TestNetworks withTokens(List<Token> list) {
        return new TestNetworks(rpcUrl, list, keeperKeyFile, keeperMaxFeeGwei, keeperMaxPriorityFeeGwei, priceMaxAge);
    }

    public TestNetworks withoutKeeperKey() {
        return new TestNetworks(rpcUrl, tokens, null, keeperMaxFeeGwei, keeperMaxPriorityFeeGwei, priceMaxAge);
    }

    public TestNetworks withFeeCeiling(BigDecimal maxFeeGwei, BigDecimal maxPriorityFeeGwei) {
        return new TestNetworks(rpcUrl, tokens, keeperKeyFile, maxFeeGwei, maxPriorityFeeGwei, priceMaxAge);
    }

    public TestNetworks withPriceMaxAge(Duration age) {
        return new TestNetworks(rpcUrl, tokens, keeperKeyFile, keeperMaxFeeGwei, keeperMaxPriorityFeeGwei, age);
    }

    /** {@code base} with these settings. */
    public Network applyTo(Network base) {
        return new Network(
                base.name(),
                base.chainId(),
                rpcUrl,
                base.confirmations(),
                base.pollInterval(),
                base.reorgWindow(),
                base.maxBlockRange(),
                base.startBlocksBack(),
                base.lookBackBlocks(),
                tokens,
                base.subscriptionContract(),
                keeperKeyFile,
                base.keeperMinBalance(),
                keeperMaxFeeGwei,
                keeperMaxPriorityFeeGwei,
                base.nativePriceFeed(),
                priceMaxAge);
    }
}
