package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.scan.ChainClient.BlockHeader;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Decides where a pass scans from by comparing the stored hashes of recent blocks ({@code chain_block}, the
 * reorganisation window) with the chain's:
 *
 * <ul>
 *   <li>the newest stored block is still on the chain: from the cursor;
 *   <li>it was replaced (a reorganisation): transfers and contract logs after the newest block the chain still has are
 *       marked orphaned, and scanning goes on after that block;
 *   <li>the chain's head is <em>below</em> the cursor (the node was reset, a fail-over to another node, a
 *       reorganisation to a shorter chain): only stored blocks at or below the head are compared, and the same rewind
 *       is made to the newest one the chain has. Orphans are settled (reported {@code failed}) only once the chain has
 *       grown back to where the cursor was, so a node that is merely behind takes nothing away: the rescan finds the
 *       same transfers again (this instance remembers that height; after a restart orphans are settled at the head,
 *       as after any reorganisation). When no stored block is on the chain (nothing in common inside the window), the pass
 *       stops there: {@code chain_watcher_cursor_ahead_of_head} is 1, an error is logged, and every later pass checks
 *       again, until the node catches up or an operator moves the cursor (docs/runbooks/alerts.md).
 * </ul>
 */
final class ForkCheck {

    private static final Logger log = LoggerFactory.getLogger(ForkCheck.class);

    private final Network network;
    private final ChainClient client;
    private final CursorRepository cursors;
    private final TransferRepository transfers;
    private final ContractLogFollower contractLogs;
    private final ChainMetrics metrics;

    /** After a rewind below the cursor: the block the chain must reach again before orphans are settled; -1: none. */
    private volatile long settleFrom = -1;

    private volatile boolean stuck;

    ForkCheck(
            Network network,
            ChainClient client,
            CursorRepository cursors,
            TransferRepository transfers,
            ContractLogFollower contractLogs,
            ChainMetrics metrics) {
        this.network = network;
        this.client = client;
        this.cursors = cursors;
        this.transfers = transfers;
        this.contractLogs = contractLogs;
        this.metrics = metrics;
    }

    /**
     * The block to scan from, after rewinding if the chain replaced scanned blocks; empty when the cursor is ahead of
     * the head and no stored block is on the chain.
     */
    Mono<Long> scanFrom(long next, long head, Instant now) {
        // Read the stored hashes completely first: a database query is never cancelled half-read.
        return cursors.recentBlocks(network.chainId(), network.reorgWindow())
                .collectList()
                .flatMap(stored ->
                        next - 1 <= head ? atOrBelowHead(next, stored, now) : aboveHead(next, head, stored, now));
    }

    /** Whether orphans may be settled at this head (not while the chain is below where the cursor was). */
    boolean maySettle(long head) {
        return head >= settleFrom;
    }

    void settled() {
        settleFrom = -1;
    }

    private Mono<Long> atOrBelowHead(long next, List<BlockHeader> stored, Instant now) {
        ahead(false, next, -1);
        if (stored.isEmpty()) {
            return Mono.just(next);
        }
        return newestOnChain(stored)
                .flatMap(forkPoint -> forkPoint >= next - 1 ? Mono.just(next) : rewind(forkPoint, now))
                // Every stored block was replaced: rescan the whole window.
                .switchIfEmpty(Mono.defer(() ->
                        rewind(Math.max(0, stored.get(stored.size() - 1).number() - 1), now)));
    }

    private Mono<Long> aboveHead(long next, long head, List<BlockHeader> stored, Instant now) {
        List<BlockHeader> comparable =
                stored.stream().filter(block -> block.number() <= head).toList();
        return newestOnChain(comparable)
                .flatMap(forkPoint -> {
                    ahead(false, next, head);
                    log.warn(
                            "Chain {}: the head {} is below the cursor {}; block {} is the newest scanned one the chain"
                                    + " still has",
                            network.chainId(),
                            head,
                            next,
                            forkPoint);
                    settleFrom = Math.max(settleFrom, next - 1);
                    return rewind(forkPoint, now);
                })
                .switchIfEmpty(Mono.<Long>fromRunnable(() -> ahead(true, next, head)));
    }

    /** The newest of these blocks (newest first) that the chain still has by the same hash. */
    private Mono<Long> newestOnChain(List<BlockHeader> blocks) {
        return Flux.fromIterable(blocks)
                .concatMap(block -> client.header(block.number())
                        .map(current -> current.hash().equalsIgnoreCase(block.hash()) ? block.number() : -1L))
                .filter(number -> number >= 0)
                .next();
    }

    private Mono<Long> rewind(long forkPoint, Instant now) {
        log.warn("Chain {}: reorganisation, blocks after {} were replaced; rescanning", network.chainId(), forkPoint);
        metrics.reorg(network);
        return transfers
                .orphanAfter(network.chainId(), forkPoint, now)
                .then(contractLogs.orphanAfter(forkPoint, now))
                .then(cursors.forget(network.chainId(), forkPoint, 0))
                .then(cursors.advance(network.chainId(), forkPoint + 1, now))
                .thenReturn(forkPoint + 1);
    }

    private void ahead(boolean nothingInCommon, long next, long head) {
        if (nothingInCommon && !stuck) {
            log.error(
                    "Chain {}: the head {} is below the cursor {} and none of the scanned blocks kept for"
                            + " reorganisations is on the chain: scanning waits (the node fell behind or was reset,"
                            + " or a reorganisation went deeper than reorg-window); see the runbook,"
                            + " ChainWatcherCursorAheadOfHead",
                    network.chainId(),
                    head,
                    next);
        } else if (!nothingInCommon && stuck) {
            log.info("Chain {}: the scanned blocks are on the chain again; scanning goes on", network.chainId());
        }
        stuck = nothingInCommon;
        metrics.cursorAheadOfHead(network, nothingInCommon);
    }
}
