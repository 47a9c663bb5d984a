package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * Per chain: how far behind the head scanning is (blocks, and seconds since the newest scanned block was made),
 * RPC errors, reorganisations, watched addresses, detected transfers and subscription contract logs found. A
 * stalled chain shows as a growing {@code chain_watcher_head_lag_seconds}.
 */
@Component
class ChainMetrics {

    private final MeterRegistry registry;
    private final Map<Long, AtomicLong> lagBlocks = new ConcurrentHashMap<>();
    private final Map<Long, AtomicLong> scannedBlockTime = new ConcurrentHashMap<>();
    private final Map<Long, AtomicLong> watched = new ConcurrentHashMap<>();

    ChainMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void lag(Network network, long blocks, Instant scannedBlockMadeAt, Instant now) {
        gauge(lagBlocks, network, "chain.watcher.head.lag.blocks", "Blocks between the chain head and the scan")
                .set(blocks);
        AtomicLong time = scannedBlockTime.computeIfAbsent(network.chainId(), chain -> {
            AtomicLong value = new AtomicLong(now.getEpochSecond());
            Gauge.builder(
                            "chain.watcher.head.lag.seconds",
                            value,
                            made -> Math.max(
                                    0,
                                    Duration.between(Instant.ofEpochSecond(made.get()), Instant.now())
                                            .toSeconds()))
                    .description("Seconds since the newest scanned block was made")
                    .tags(tags(network))
                    .register(registry);
            return value;
        });
        time.set(scannedBlockMadeAt.getEpochSecond());
    }

    void watched(Network network, int count) {
        gauge(watched, network, "chain.watcher.watched.addresses", "Deposit addresses being watched")
                .set(count);
    }

    void detected(Network network) {
        counter(network, "chain.watcher.detections", "Transfers to watched addresses detected")
                .increment();
    }

    void contractLogs(Network network, int count) {
        counter(network, "chain.watcher.contract.logs", "Logs of the subscription contract found in scanned blocks")
                .increment(count);
    }

    void rpcError(Network network) {
        counter(network, "chain.watcher.rpc.errors", "Scan passes that failed (RPC error or timeout)")
                .increment();
    }

    void reorg(Network network) {
        counter(network, "chain.watcher.reorgs", "Reorganisations that replaced scanned blocks")
                .increment();
    }

    private AtomicLong gauge(Map<Long, AtomicLong> values, Network network, String name, String description) {
        return values.computeIfAbsent(network.chainId(), chain -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder(name, value, AtomicLong::get)
                    .description(description)
                    .tags(tags(network))
                    .register(registry);
            return value;
        });
    }

    private Counter counter(Network network, String name, String description) {
        return Counter.builder(name)
                .description(description)
                .tags(tags(network))
                .register(registry);
    }

    private static Tags tags(Network network) {
        return Tags.of("chain_id", Long.toString(network.chainId()), "network", network.name());
    }
}
