package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
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
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;

/**
 * Per chain: how far behind the head scanning is (blocks, and seconds since the newest scanned block was made),
 * RPC errors, reorganisations, whether this instance holds the chain's lease, watched addresses, detected transfers, subscription contract logs found, watches that
 * came later than the look-back reaches, and whether the cursor is ahead of a head it has nothing in common with. A
 * stalled chain shows as a growing {@code chain_watcher_head_lag_seconds}.
 *
 * <p>{@code chain_watcher_cursor_ahead_of_head} is set by each pass of the instance holding the chain's lease; on an
 * instance that has not set it for {@code lease-duration} it reads NaN, which the alert's max over instances passes
 * over.
 */
@Component
class ChainMetrics {

    private final MeterRegistry registry;
    private final Map<Long, AtomicLong> lagBlocks = new ConcurrentHashMap<>();
    private final Map<Long, AtomicLong> scannedBlockTime = new ConcurrentHashMap<>();
    private final Map<Long, AtomicLong> watched = new ConcurrentHashMap<>();
    private final Map<Long, AtomicLong> leaseHeld = new ConcurrentHashMap<>();
    private final Map<Long, AtomicReference<Reading>> aheadOfHead = new ConcurrentHashMap<>();
    private final Duration fresh;

    /** A gauge value and when it was set. */
    private record Reading(double value, Instant at) {}

    ChainMetrics(MeterRegistry registry, ChainWatcherProperties properties) {
        this.registry = registry;
        this.fresh = properties.leaseDuration();
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

    /** 1 on the instance whose last pass held the chain's lease (it scans and keeps), 0 on the others. */
    void leaseHeld(Network network, boolean held) {
        gauge(
                        leaseHeld,
                        network,
                        "chain.watcher.lease.held",
                        "1 while this instance holds the chain's lease (it scans)")
                .set(held ? 1 : 0);
    }

    void detected(Network network) {
        counter(network, "chain.watcher.detections", "Transfers to watched addresses detected")
                .increment();
    }

    void contractLogs(Network network, int count) {
        counter(network, "chain.watcher.contract.logs", "Logs of the subscription contract found in scanned blocks")
                .increment(count);
    }

    /** 1 while the cursor is ahead of the head with no stored block on the chain (scanning waits), else 0. */
    void cursorAheadOfHead(Network network, boolean ahead) {
        aheadOfHead
                .computeIfAbsent(network.chainId(), chain -> {
                    AtomicReference<Reading> reading = new AtomicReference<>(new Reading(0, Instant.EPOCH));
                    Gauge.builder(
                                    "chain.watcher.cursor.ahead.of.head",
                                    reading,
                                    value -> value.get().at().plus(fresh).isAfter(Instant.now())
                                            ? value.get().value()
                                            : Double.NaN)
                            .description("1 while the cursor is ahead of the chain's head with no scanned block in"
                                    + " common (scanning waits)")
                            .tags(tags(network))
                            .register(registry);
                    return reading;
                })
                .set(new Reading(ahead ? 1 : 0, Instant.now()));
    }

    /** Watches whose link was created before the oldest block the look-back reaches. */
    void lateWatches(Network network, int count) {
        counter(network, "chain.watcher.watches.late", "Watches that arrived later than the look-back reaches")
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
