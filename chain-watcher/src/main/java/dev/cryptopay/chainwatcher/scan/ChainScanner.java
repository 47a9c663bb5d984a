package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Token;
import dev.cryptopay.chainwatcher.pricing.UsdPricer;
import dev.cryptopay.chainwatcher.pricing.UsdValue;
import dev.cryptopay.chainwatcher.report.PaymentLinksReporter;
import dev.cryptopay.chainwatcher.report.ReportOutcome;
import dev.cryptopay.chainwatcher.scan.ChainClient.BlockHeader;
import dev.cryptopay.chainwatcher.scan.ChainClient.SeenTransfer;
import dev.cryptopay.chainwatcher.scan.TransferFinder.Found;
import dev.cryptopay.chainwatcher.scan.TransferFinder.Match;
import dev.cryptopay.chainwatcher.watch.WatchRepository;
import dev.cryptopay.chainwatcher.watch.WatchedAddress;
import dev.cryptopay.service.background.BackgroundLoop;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Watches one chain. Each pass, while holding the chain's lease: read the head; bring the in-memory watch list up to
 * date ({@link WatchSet}); compare the stored hashes of recent blocks with the chain's and rewind after a
 * reorganisation or when the head is below the cursor ({@link ForkCheck}); look for new addresses in the blocks before
 * the cursor ({@link Backfill}); scan the next block range for transfers to and from watched addresses
 * ({@link TransferFinder}: one eth_getLogs for every followed token, each block once, recipients and senders matched in
 * memory) and for the logs of the chain's subscription contract ({@link ContractLogFollower}); settle what a
 * reorganisation removed; count confirmations; value newly confirmed incoming transfers in USD ({@link UsdPricer});
 * report what changed; last, the chain's {@link LeasedWork} (the keeper). The cursor moves only after a
 * range was fully stored, so an RPC error never skips a block: the pass fails and the same range is scanned again
 * after a pause.
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
    private final WatchSet watchSet;
    private final TransferFinder finder;
    private final Backfill backfill;
    private final ForkCheck forks;
    private final UsdPricer pricer;
    private final Map<String, Token> configuredTokens;

    /** The newest block scanned, when this instance scanned it (saves reading it again); null: unknown. */
    private volatile BlockHeader newestScanned;

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
        this.watchSet = new WatchSet(network, watches);
        this.finder = new TransferFinder(client);
        this.backfill = new Backfill(network, client, finder);
        this.forks = new ForkCheck(network, client, cursors, transfers, contractLogs, metrics);
        this.pricer = new UsdPricer(
                (contract, data) -> client.call(null, contract, data, null)
                        .map(result ->
                                result.failed() ? Optional.<String>empty() : Optional.ofNullable(result.value())),
                network.priceMaxAge());
        this.configuredTokens = network.tokensByContract();
        metrics.lateWatches(network, 0); // exported from the start, so the first late watch is an increase
        log.info(
                "Chain {} ({}): follows the Transfer logs of {} configured token(s){}, and those links name",
                network.chainId(),
                network.name(),
                network.tokens().size(),
                network.tokens().stream()
                        .map(token -> (token.symbol() == null ? "" : token.symbol() + " ") + token.contract())
                        .collect(Collectors.joining(", ", network.tokens().isEmpty() ? "" : ": ", "")));
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
                    .doOnNext(lease -> metrics.leaseHeld(network, true))
                    .switchIfEmpty(Mono.fromRunnable(
                            () -> { // another instance holds the lease
                                watchSet.forget();
                                metrics.leaseHeld(network, false);
                            }))
                    .flatMap(lease -> forks.scanFrom(lease.nextBlock(), head, now)
                            .flatMap(from ->
                                    watchSet.refresh(lease.epoch(), now).flatMap(fresh -> scan(from, head, fresh, now)))
                            .flatMap(caughtUp -> transfers
                                    .confirm(network.chainId(), head, network.confirmations(), now)
                                    .then(contractLogs.confirm(head, now))
                                    .then(price(head))
                                    .then(report(now))
                                    .then(contractLogs.report(now))
                                    .then(watches.prune(now))
                                    .then(Flux.fromIterable(leasedWork)
                                            .concatMap(work -> work.afterPass(head))
                                            .then())
                                    .thenReturn(caughtUp))
                            // The cursor is ahead of a head it has nothing in common with: wait, check again.
                            .switchIfEmpty(Mono.defer(() -> report(now).then(contractLogs.report(now)))
                                    .thenReturn(true)))
                    .defaultIfEmpty(true);
        });
    }

    /** Scans [from, to] (bounded by the head and the range size); answers whether it reached the head. */
    private Mono<Boolean> scan(long from, long head, List<WatchedAddress> fresh, Instant now) {
        long to = Math.min(head, from + client.ranges().size() - 1); // below from when nothing new was mined
        metrics.watched(network, watchSet.size());
        Map<String, Integer> tokens = watchSet.tokens();
        Mono<Found> forward = to >= from && watchSet.size() > 0
                ? finder.find(from, to, tokens.keySet(), watchSet::get)
                : Mono.just(Found.NOTHING);
        BlockHeader known = newestScanned;
        return backfill.search(from, fresh, tokens, known)
                .flatMap(before -> forward.flatMap(found -> Flux.concat(
                                Flux.fromIterable(before.matches()), Flux.fromIterable(found.matches()))
                        .concatMap(match -> transfers
                                .upsert(detected(match, tokens), now)
                                .doOnSuccess(stored -> metrics.detected(network)))
                        .then(watches.markBackfilled(fresh.stream()
                                .map(WatchedAddress::paymentLinkId)
                                .toList()))
                        .then(Mono.fromRunnable(() -> late(before.late())))
                        .then(contractLogs.scan(from, to, now))
                        .then(to >= from ? advance(from, to, head, found.headers(), now) : Mono.empty())
                        .then(to == head && forks.maySettle(head) ? settleOrphans(now) : Mono.empty())
                        .then(newest(Math.max(to, from - 1), found.headers()).doOnNext(block -> {
                            newestScanned = block;
                            metrics.lag(network, head - block.number(), block.time(), now);
                        }))
                        .thenReturn(to >= head)));
    }

    /** Once at the head: settles what a reorganisation removed and the rescan did not find again. */
    private Mono<Void> settleOrphans(Instant now) {
        return transfers
                .settleOrphans(network.chainId(), now)
                .then(contractLogs.settleOrphans(now))
                .then(Mono.fromRunnable(forks::settled));
    }

    /** Records the scanned blocks' hashes (inside the reorganisation window) and moves the cursor past them. */
    private Mono<Void> advance(long from, long to, long head, Map<Long, BlockHeader> known, Instant now) {
        return recordHashes(Math.max(from, head - network.reorgWindow() + 1), to, known)
                .then(cursors.forget(network.chainId(), Long.MAX_VALUE, head - network.reorgWindow()))
                .then(cursors.advance(network.chainId(), to + 1, now));
    }

    private void late(List<WatchedAddress> late) {
        if (late.isEmpty()) {
            return;
        }
        metrics.lateWatches(network, late.size());
        log.warn(
                "Chain {}: the watch of link(s) {} came later than the look-back reaches: payments to them more than {}"
                        + " blocks before the cursor are not looked for (raise look-back-blocks if this recurs)",
                network.chainId(),
                Backfill.links(late),
                network.lookBackBlocks());
    }

    /**
     * The transfer to store for a match, in the asset it moved: the link's token (with the link's decimals), another
     * followed token (with that token's), or the native coin.
     */
    private DetectedTransfer detected(Match match, Map<String, Integer> tokens) {
        // An outgoing transfer is stored in the asset it moved like an incoming one.
        SeenTransfer seen = match.seen();
        WatchedAddress watch = match.watch();
        int decimals;
        if (seen.token() == null) {
            decimals = WatchSet.NATIVE_DECIMALS;
        } else if (seen.token().equals(watch.tokenContract())) {
            decimals = watch.decimals();
        } else {
            decimals = tokens.get(seen.token());
        }
        return new DetectedTransfer(
                UUID.randomUUID(),
                network.chainId(),
                seen.txHash(),
                seen.logIndex(),
                match.outgoing() ? DetectedTransfer.OUT : DetectedTransfer.IN,
                seen.blockNumber(),
                seen.blockHash(),
                watch.paymentLinkId(),
                watch.network(),
                seen.token(),
                seen.from(),
                seen.to(),
                seen.value(),
                decimals,
                "pending",
                0,
                false,
                null,
                null,
                null,
                null);
    }

    private Mono<Void> recordHashes(long from, long to, Map<Long, BlockHeader> known) {
        if (from > to) {
            return Mono.empty();
        }
        return Flux.range(0, (int) (to - from + 1))
                .concatMap(offset -> newest(from + offset, known))
                .concatMap(block -> cursors.saveBlock(network.chainId(), block))
                .then();
    }

    /** A block's header: from the blocks read whole, else read. */
    private Mono<BlockHeader> newest(long number, Map<Long, BlockHeader> known) {
        BlockHeader header = known.get(number);
        return header != null ? Mono.just(header) : client.header(number);
    }

    /**
     * Values the incoming transfers confirmed since the last pass in USD, once, at the chain's time (the head block's):
     * the asset's price feed, one dollar a unit for a stablecoin without one, else unknown. An RPC failure leaves them
     * unvalued, so they are valued (and their confirmation reported) on a later pass; a feed that reverts, answers
     * garbage or is stale makes the value unknown.
     */
    private Mono<Void> price(long head) {
        return transfers
                .unpriced(network.chainId())
                .collectList()
                .filter(unpriced -> !unpriced.isEmpty())
                .flatMap(unpriced -> headHeader(head)
                        .flatMap(block -> Flux.fromIterable(unpriced)
                                .concatMap(transfer -> value(transfer, block.time())
                                        .flatMap(value -> transfers.priced(
                                                transfer.id(), value.known() ? value.usd() : null, value.source())))
                                .then()))
                .onErrorResume(failure -> {
                    metrics.rpcError(network);
                    log.warn(
                            "Chain {}: valuing confirmed transfers failed, tried again next pass: {}",
                            network.chainId(),
                            failure.toString());
                    return Mono.empty();
                });
    }

    /** The head block's header: the newest one scanned when the pass reached the head, else read. */
    private Mono<BlockHeader> headHeader(long head) {
        BlockHeader known = newestScanned;
        return known != null && known.number() == head ? Mono.just(known) : client.header(head);
    }

    private Mono<UsdValue> value(DetectedTransfer transfer, Instant chainTime) {
        if (transfer.tokenContract() == null) {
            return pricer.value(network.nativeFeed(), false, transfer.amount(), chainTime);
        }
        Token token = configuredTokens.get(transfer.tokenContract());
        return token == null
                ? pricer.value(null, false, transfer.amount(), chainTime) // a token only links name: unknown
                : pricer.value(token.feed(), token.usdStablecoin(), transfer.amount(), chainTime);
    }

    /**
     * Reports every unacknowledged change: incoming transfers to the link's transactions route, outgoing ones to its
     * outgoing-transfers route. A transfer confirmed before its first report (enough confirmations within
     * one pass) is reported pending first, so the merchant always hears of a payment being detected before it is
     * confirmed. Only an acknowledgement (2xx) marks a report done; a refusal (4xx) is noted and the report is sent
     * again no sooner than {@link ReportOutcome#RESEND_REFUSED_AFTER}; anything else is sent again next pass.
     */
    private Mono<Void> report(Instant now) {
        return transfers
                .unreported(network.chainId(), now, ReportOutcome.RESEND_REFUSED_AFTER)
                .collectList()
                .flatMapMany(Flux::fromIterable)
                .concatMap(transfer -> detectedFirst(transfer)
                        .flatMap(first -> first == ReportOutcome.ACKNOWLEDGED ? send(transfer) : Mono.just(first))
                        .flatMap(outcome -> {
                            if (outcome == ReportOutcome.ACKNOWLEDGED) {
                                return transfers.markReported(
                                        transfer.id(), transfer.status(), transfer.confirmations());
                            }
                            return outcome == ReportOutcome.REFUSED
                                    ? transfers.markRefused(transfer.id(), now)
                                    : Mono.empty();
                        }))
                .then();
    }

    private Mono<ReportOutcome> detectedFirst(DetectedTransfer transfer) {
        if (transfer.reportedStatus() != null || !transfer.status().equals("confirmed")) {
            return Mono.just(ReportOutcome.ACKNOWLEDGED);
        }
        return send(transfer.asPending());
    }

    private Mono<ReportOutcome> send(DetectedTransfer transfer) {
        return transfer.outgoing()
                ? reporter.reportOutgoing(transfer.paymentLinkId(), transfer.outgoingReport(network.confirmations()))
                : reporter.report(transfer.paymentLinkId(), transfer.report(network.confirmations()));
    }

    void close() {
        client.close();
    }
}
