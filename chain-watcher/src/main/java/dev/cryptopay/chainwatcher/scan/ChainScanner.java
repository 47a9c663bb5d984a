package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.report.PaymentLinksReporter;
import dev.cryptopay.chainwatcher.scan.ChainClient.SeenTransfer;
import dev.cryptopay.chainwatcher.watch.WatchRepository;
import dev.cryptopay.chainwatcher.watch.WatchedAddress;
import dev.cryptopay.service.background.BackgroundLoop;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Watches one chain. Each pass, while holding the chain's lease: read the head; compare the stored hashes of recent
 * blocks with the chain's and rewind to the fork point after a reorganisation; scan the next block range for token
 * and native transfers to watched addresses, and for the logs of the chain's subscription contract
 * ({@link ContractLogFollower}); settle what a reorganisation removed; count confirmations; report what changed; last,
 * the chain's {@link LeasedWork} (the keeper). The cursor moves only after a range was fully stored, so an RPC error
 * never skips a block: the pass fails and the same range is scanned again after a pause.
 */
class ChainScanner extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(ChainScanner.class);

    private final Network network;
    private final ChainClient client;
    private final CursorRepository cursors;
    private final TransferRepository transfers;
    private final WatchRepository watches;
    private final PaymentLinksReporter reporter;
    private final ContractLogFollower contractLogs;
    private final List<LeasedWork> leasedWork;
    private final ChainMetrics metrics;
    private final ChainWatcherProperties properties;
    private final String instance;
    private final Clock clock;

    ChainScanner(
            Network network,
            ChainClient client,
            CursorRepository cursors,
            TransferRepository transfers,
            WatchRepository watches,
            PaymentLinksReporter reporter,
            ContractLogFollower contractLogs,
            List<LeasedWork> leasedWork,
            ChainMetrics metrics,
            ChainWatcherProperties properties,
            String instance,
            Clock clock) {
        this.network = network;
        this.client = client;
        this.cursors = cursors;
        this.transfers = transfers;
        this.watches = watches;
        this.reporter = reporter;
        this.contractLogs = contractLogs;
        this.leasedWork = List.copyOf(leasedWork);
        this.metrics = metrics;
        this.properties = properties;
        this.instance = instance;
        this.clock = clock;
    }

    @Override
    protected boolean enabled() {
        return properties.scanEnabled();
    }

    @Override
    protected Duration delayAfterFailure() {
        return properties.retryDelay();
    }

    @Override
    protected Mono<Duration> runOnce() {
        return pass().doOnError(failure -> metrics.rpcError(network))
                .map(caughtUp -> caughtUp ? network.pollInterval() : Duration.ZERO);
    }

    /** One pass; answers whether the chain is scanned up to its head (false: more blocks are waiting). */
    Mono<Boolean> pass() {
        Instant now = clock.instant();
        return client.head().flatMap(head -> {
            long firstBlock = Math.max(0, head - network.startBlocksBack());
            return cursors.lease(network.chainId(), instance, firstBlock, now, properties.leaseDuration())
                    .flatMap(next -> rewindAfterReorg(next, now)
                            .flatMap(from -> scan(from, head, now))
                            .flatMap(caughtUp -> transfers
                                    .confirm(network.chainId(), head, network.confirmations(), now)
                                    .then(contractLogs.confirm(head, now))
                                    .then(report())
                                    .then(contractLogs.report())
                                    .then(watches.prune(now))
                                    .then(Flux.fromIterable(leasedWork)
                                            .concatMap(work -> work.afterPass(head))
                                            .then())
                                    .thenReturn(caughtUp)))
                    .defaultIfEmpty(true); // another instance holds the lease
        });
    }

    /**
     * Finds the newest stored block whose hash the chain still has; when the newest stored block was replaced, marks
     * transfers and contract logs after the fork point as orphaned and answers the block after it as the place to scan
     * from.
     */
    private Mono<Long> rewindAfterReorg(long next, Instant now) {
        // Read the stored hashes completely first: a database query is never cancelled half-read.
        return cursors.recentBlocks(network.chainId(), network.reorgWindow())
                .collectList()
                .flatMap(stored -> {
                    if (stored.isEmpty()) {
                        return Mono.just(next);
                    }
                    return Flux.fromIterable(stored)
                            .concatMap(block -> client.header(block.number())
                                    .map(current ->
                                            current.hash().equalsIgnoreCase(block.hash()) ? block.number() : -1L))
                            .filter(number -> number >= 0)
                            .next()
                            .flatMap(forkPoint -> forkPoint >= next - 1 ? Mono.just(next) : rewind(forkPoint, now))
                            // Every stored block was replaced: rescan the whole window.
                            .switchIfEmpty(Mono.defer(() -> rewind(
                                    Math.max(0, stored.get(stored.size() - 1).number() - 1), now)));
                });
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

    /** Scans [from, to] (bounded by the head and the range limit); answers whether it reached the head. */
    private Mono<Boolean> scan(long from, long head, Instant now) {
        long to = Math.min(head, from + network.maxBlockRange() - 1); // below from when nothing new was mined
        return watches.active(network.chainId(), now).collectList().flatMap(watched -> {
            metrics.watched(network, watched.size());
            Map<String, WatchedAddress> byAddress =
                    watched.stream().collect(Collectors.toMap(WatchedAddress::depositAddress, Function.identity()));
            List<WatchedAddress> fresh =
                    watched.stream().filter(watch -> !watch.backfilled()).toList();
            return backfill(from, fresh)
                    .concatWith(to >= from ? found(from, to, watched) : Flux.empty())
                    .filter(seen -> matches(seen, byAddress.get(seen.to())))
                    .concatMap(seen -> transfers
                            .upsert(detected(seen, byAddress.get(seen.to())), now)
                            .doOnSuccess(stored -> metrics.detected(network)))
                    .then(watches.markBackfilled(
                            fresh.stream().map(WatchedAddress::paymentLinkId).toList()))
                    .then(contractLogs.scan(from, to, now))
                    .then(to >= from ? advance(from, to, head, now) : Mono.empty())
                    .then(to == head ? settleOrphans(now) : Mono.empty())
                    .then(client.header(Math.max(to, from - 1))
                            .doOnNext(block -> metrics.lag(network, head - block.number(), block.time(), now)))
                    .thenReturn(to >= head);
        });
    }

    /** Once at the head: settles what a reorganisation removed and the rescan did not find again. */
    private Mono<Void> settleOrphans(Instant now) {
        return transfers.settleOrphans(network.chainId(), now).then(contractLogs.settleOrphans(now));
    }

    /** Records the scanned blocks' hashes (inside the reorganisation window) and moves the cursor past them. */
    private Mono<Void> advance(long from, long to, long head, Instant now) {
        return recordHashes(Math.max(from, head - network.reorgWindow() + 1), to)
                .then(cursors.forget(network.chainId(), Long.MAX_VALUE, head - network.reorgWindow()))
                .then(cursors.advance(network.chainId(), to + 1, now));
    }

    /**
     * Addresses new to the watch list are also looked for in the blocks already scanned before they arrived (the
     * event may reach the watcher after the customer paid): {@code startBlocksBack} blocks before the cursor.
     */
    private Flux<SeenTransfer> backfill(long from, List<WatchedAddress> fresh) {
        long start = Math.max(0, from - network.startBlocksBack());
        return fresh.isEmpty() || start > from - 1 ? Flux.empty() : found(start, from - 1, fresh);
    }

    private Flux<SeenTransfer> found(long from, long to, List<WatchedAddress> watched) {
        List<String> tokenRecipients = watched.stream()
                .filter(watch -> !watch.nativeCoin())
                .map(WatchedAddress::depositAddress)
                .toList();
        Set<String> tokens = watched.stream()
                .filter(watch -> !watch.nativeCoin())
                .map(WatchedAddress::tokenContract)
                .collect(Collectors.toSet());
        Set<String> nativeRecipients = watched.stream()
                .filter(WatchedAddress::nativeCoin)
                .map(WatchedAddress::depositAddress)
                .collect(Collectors.toSet());
        Flux<SeenTransfer> tokenTransfers =
                client.tokenTransfers(from, to, tokens, tokenRecipients).flatMapIterable(list -> list);
        Flux<SeenTransfer> nativeTransfers = nativeRecipients.isEmpty()
                ? Flux.empty()
                : Flux.range(0, (int) (to - from + 1))
                        .concatMap(offset -> client.nativeTransfers(from + offset, nativeRecipients))
                        .flatMapIterable(list -> list);
        return Flux.concat(tokenTransfers, nativeTransfers);
    }

    /** A transfer pays a watch when it is of the watched token (or native coin) and its log was not removed. */
    private static boolean matches(SeenTransfer seen, WatchedAddress watch) {
        if (watch == null || seen.removed()) {
            return false;
        }
        return watch.nativeCoin() ? seen.token() == null : watch.tokenContract().equals(seen.token());
    }

    private DetectedTransfer detected(SeenTransfer seen, WatchedAddress watch) {
        return new DetectedTransfer(
                UUID.randomUUID(),
                network.chainId(),
                seen.txHash(),
                seen.logIndex(),
                seen.blockNumber(),
                seen.blockHash(),
                watch.paymentLinkId(),
                watch.network(),
                seen.from(),
                seen.value(),
                watch.decimals(),
                "pending",
                0,
                false,
                null,
                null);
    }

    private Mono<Void> recordHashes(long from, long to) {
        if (from > to) {
            return Mono.empty();
        }
        return Flux.range(0, (int) (to - from + 1))
                .concatMap(offset -> client.header(from + offset))
                .concatMap(block -> cursors.saveBlock(network.chainId(), block))
                .then();
    }

    /**
     * Reports every unacknowledged change. A transfer confirmed before its first report (enough confirmations within
     * one pass) is reported pending first, so the merchant always hears of a payment being detected before it is
     * confirmed.
     */
    private Mono<Void> report() {
        return transfers
                .unreported(network.chainId())
                .concatMap(transfer -> detectedFirst(transfer)
                        .then(reporter.report(transfer.paymentLinkId(), transfer.report(network.confirmations())))
                        .filter(acknowledged -> acknowledged)
                        .flatMap(acknowledged ->
                                transfers.markReported(transfer.id(), transfer.status(), transfer.confirmations())))
                .then();
    }

    private Mono<Boolean> detectedFirst(DetectedTransfer transfer) {
        if (transfer.reportedStatus() != null || !transfer.status().equals("confirmed")) {
            return Mono.empty();
        }
        return reporter.report(transfer.paymentLinkId(), transfer.asPending().report(network.confirmations()));
    }

    void close() {
        client.close();
    }
}
