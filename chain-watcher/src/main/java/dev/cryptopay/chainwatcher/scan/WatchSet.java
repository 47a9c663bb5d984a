package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Token;
import dev.cryptopay.chainwatcher.watch.WatchRepository;
import dev.cryptopay.chainwatcher.watch.WatchedAddress;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import reactor.core.publisher.Mono;

/**
 * One chain's watch list, held in memory by the instance scanning the chain, so that matching a transfer's recipient
 * is a hash lookup and a pass costs the same for a hundred addresses as for a hundred thousand. It is loaded whole
 * once when this instance takes the chain's lease (a new lease epoch: another instance may have held the chain
 * meanwhile); after that each pass reads only the addresses not searched for yet ({@code NOT backfilled}: those
 * learned since, an indexed handful), and forgets, in memory, those whose watch ended. Only the lease holder marks
 * addresses searched, so an instance that kept the lease has seen every address the database holds.
 *
 * <p>The tokens it follows are the network's configured tokens and every token a watched link names; a token's
 * decimals are the configured ones, else those of the links that name it.
 */
final class WatchSet {

    /** The native coin's decimals on every EVM chain (wei). */
    static final int NATIVE_DECIMALS = 18;

    private final Network network;
    private final WatchRepository watches;
    private final Map<String, Token> configured;
    private final Map<String, WatchedAddress> byAddress = new HashMap<>();
    private final PriorityQueue<WatchedAddress> byEnd =
            new PriorityQueue<>(Comparator.comparing(WatchedAddress::watchUntil));
    /** Tokens links name: contract → (decimals, how many watched links name it). */
    private final Map<String, int[]> named = new HashMap<>();

    /** The lease epoch the list was loaded in; -1: not loaded. */
    private long epoch = -1;

    WatchSet(Network network, WatchRepository watches) {
        this.network = network;
        this.watches = watches;
        this.configured = network.tokensByContract();
    }

    /**
     * Brings the list up to date at the start of a pass that holds the lease; answers the addresses whose earlier
     * blocks were not searched yet.
     */
    synchronized Mono<List<WatchedAddress>> refresh(long leaseEpoch, Instant now) {
        if (leaseEpoch != epoch) {
            return watches.active(network.chainId(), now).collectList().map(all -> {
                synchronized (this) {
                    clear();
                    all.forEach(this::add);
                    epoch = leaseEpoch;
                    return all.stream().filter(watch -> !watch.backfilled()).toList();
                }
            });
        }
        prune(now);
        return watches.fresh(network.chainId(), now).collectList().map(fresh -> {
            synchronized (this) {
                fresh.forEach(this::add);
                return fresh;
            }
        });
    }

    /** Another instance holds the lease: what this one holds may go stale, so it is loaded again when needed. */
    synchronized void forget() {
        epoch = -1;
        clear();
    }

    synchronized WatchedAddress get(String address) {
        return byAddress.get(address);
    }

    synchronized int size() {
        return byAddress.size();
    }

    /** The followed token contracts (lower-case) and their decimals. */
    synchronized Map<String, Integer> tokens() {
        Map<String, Integer> tokens = new LinkedHashMap<>();
        configured.forEach((contract, token) -> tokens.put(contract, token.decimals()));
        named.forEach((contract, use) -> tokens.putIfAbsent(contract, use[0]));
        return tokens;
    }

    private void add(WatchedAddress watch) {
        WatchedAddress before = byAddress.get(watch.depositAddress());
        if (watch.equals(before)) {
            return; // read again: a pass failed before it was marked searched
        }
        byAddress.put(watch.depositAddress(), watch);
        if (before != null) {
            byEnd.remove(before);
            unname(before);
        }
        byEnd.add(watch);
        if (!watch.nativeCoin()) {
            named.computeIfAbsent(watch.tokenContract(), token -> new int[] {watch.decimals(), 0})[1]++;
        }
    }

    private void prune(Instant now) {
        while (!byEnd.isEmpty() && !byEnd.peek().watchUntil().isAfter(now)) {
            WatchedAddress ended = byEnd.poll();
            byAddress.remove(ended.depositAddress(), ended);
            unname(ended);
        }
    }

    private void unname(WatchedAddress watch) {
        if (!watch.nativeCoin()) {
            named.computeIfPresent(watch.tokenContract(), (token, use) -> --use[1] == 0 ? null : use);
        }
    }

    private void clear() {
        byAddress.clear();
        byEnd.clear();
        named.clear();
    }
}
