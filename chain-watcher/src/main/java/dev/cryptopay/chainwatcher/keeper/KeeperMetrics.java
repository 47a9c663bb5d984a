package dev.cryptopay.chainwatcher.keeper;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.stereotype.Component;

/**
 * Per chain ({@code chain_id}, {@code network}): the keeper key's balance and the minimum it should keep, how long the
 * oldest unmined collect has waited, and counters of collects sent, confirmed, reverted, replaced and skipped, of
 * passes that collected nothing for want of subscriptions-service's answer on scope, of fees the ceiling held back, and
 * of broadcasts refused.
 *
 * <p>The gauges show what the last keeper pass on this instance read. Only the instance holding the chain's lease runs
 * passes, so on the others they would stand still: a reading older than {@code lease-duration} is shown as NaN, which
 * the alerts' min/max over instances pass over.
 */
@Component
class KeeperMetrics {

    /** What one pass read; {@code oldestUnmined} null when every collect was mined. */
    private record Reading(double balanceWei, Instant oldestUnmined, Instant readAt) {}

    private static final Reading NONE = new Reading(Double.NaN, null, Instant.EPOCH);

    private final MeterRegistry registry;
    private final Duration fresh;
    private final Clock clock;
    private final Map<Long, AtomicReference<Reading>> readings = new ConcurrentHashMap<>();

    KeeperMetrics(MeterRegistry registry, ChainWatcherProperties properties, Clock clock) {
        this.registry = registry;
        this.fresh = properties.leaseDuration();
        this.clock = clock;
    }

    /** Registers the chain's gauges (once; a new keeper of the same chain shares them). */
    void register(Network network) {
        readings.computeIfAbsent(network.chainId(), chain -> {
            AtomicReference<Reading> reading = new AtomicReference<>(NONE);
            Gauge.builder(
                            "chain.watcher.keeper.balance.wei",
                            reading,
                            value -> fresh(value.get()) ? value.get().balanceWei() : Double.NaN)
                    .description("The keeper key's native-coin balance, in wei")
                    .tags(tags(network))
                    .register(registry);
            Gauge.builder(
                            "chain.watcher.keeper.min.balance.wei",
                            network,
                            n -> n.keeperMinBalanceWei().doubleValue())
                    .description("The balance below which the keeper key is low (keeper-min-balance), in wei")
                    .tags(tags(network))
                    .register(registry);
            Gauge.builder("chain.watcher.keeper.oldest.pending.seconds", reading, value -> waited(value.get()))
                    .description("Seconds the oldest collect not mined yet has waited since it was first sent")
                    .tags(tags(network))
                    .register(registry);
            // From 0, so that the first one shows as an increase to the alerts.
            feeCeilingCounter(network);
            broadcastsRefusedCounter(network);
            return reading;
        });
    }

    /** What a pass read: the balance at its start, and when the oldest collect not mined yet was first recorded. */
    void read(Network network, BigInteger balanceWei, Instant oldestUnmined) {
        register(network);
        readings.get(network.chainId()).set(new Reading(balanceWei.doubleValue(), oldestUnmined, clock.instant()));
    }

    void sent(Network network) {
        counter(
                        network,
                        "chain.watcher.keeper.collects.sent",
                        "Collects the keeper broadcast (replacements not counted)")
                .increment();
    }

    void confirmed(Network network) {
        counter(
                        network,
                        "chain.watcher.keeper.collects.confirmed",
                        "Collects of the keeper mined, succeeded and confirmed")
                .increment();
    }

    void reverted(Network network) {
        counter(
                        network,
                        "chain.watcher.keeper.collects.reverted",
                        "Collects of the keeper mined and confirmed but reverted")
                .increment();
    }

    void replaced(Network network) {
        counter(
                        network,
                        "chain.watcher.keeper.collects.replaced",
                        "Unmined transactions of the keeper replaced after stuck-after (same nonce)")
                .increment();
    }

    void skipped(Network network) {
        counter(
                        network,
                        "chain.watcher.keeper.collects.skipped",
                        "Collects not sent because their simulation failed (they would revert)")
                .increment();
    }

    void givenUp(Network network) {
        counter(
                        network,
                        "chain.watcher.keeper.given.up",
                        "Subscriptions the keeper gave up on after give-up-after failed collects in a row")
                .increment();
    }

    void feeCeiling(Network network) {
        feeCeilingCounter(network).increment();
    }

    void broadcastRefused(Network network) {
        broadcastsRefusedCounter(network).increment();
    }

    private Counter feeCeilingCounter(Network network) {
        return counter(
                network,
                "chain.watcher.keeper.fee.ceiling",
                "Keeper passes whose fees, and stuck transactions whose raise, the network's fee ceiling held back");
    }

    private Counter broadcastsRefusedCounter(Network network) {
        return counter(
                network,
                "chain.watcher.keeper.broadcasts.refused",
                "Broadcasts of keeper transactions the node refused or did not answer");
    }

    void scopeUnanswered(Network network) {
        counter(
                        network,
                        "chain.watcher.keeper.scope.unanswered",
                        "Keeper passes that collected nothing because subscriptions-service did not say which subscriptions"
                                + " the platform answers for")
                .increment();
    }

    private boolean fresh(Reading reading) {
        return !reading.readAt().plus(fresh).isBefore(clock.instant());
    }

    private double waited(Reading reading) {
        if (!fresh(reading)) {
            return Double.NaN;
        }
        Instant oldest = reading.oldestUnmined();
        return oldest == null
                ? 0
                : Math.max(0, Duration.between(oldest, clock.instant()).toSeconds());
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
