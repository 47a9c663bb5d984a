package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.report.ReportOutcome;
import dev.cryptopay.chainwatcher.report.SubscriptionsReporter;
import dev.cryptopay.chainwatcher.scan.ChainClient.BlockHeader;
import dev.cryptopay.chainwatcher.scan.ChainClient.SeenLog;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Follows one chain's subscription contract inside its {@link ChainScanner}'s pass: the same block ranges, the same
 * reorganisation handling and the same confirmations as transfers. Every log of the contract in a scanned range is
 * stored with its block's time; subscriptions-service is told of a log once it is confirmed (never while pending: it
 * applies only confirmed facts), and again, as removed, when a reorganisation deeper than the confirmations took a
 * reported log away. Reports go in order and stop at the first one not delivered, so subscriptions-service never
 * hears of a later log before an earlier one it could not be told of. Does nothing on a chain without a contract.
 */
class ContractLogFollower {

    private final Network network;
    private final Optional<String> contract;
    private final ChainClient client;
    private final ContractLogRepository logs;
    private final SubscriptionsReporter reporter;
    private final ChainMetrics metrics;

    ContractLogFollower(
            Network network,
            ChainClient client,
            ContractLogRepository logs,
            SubscriptionsReporter reporter,
            ChainMetrics metrics) {
        this.network = network;
        this.contract = network.contract();
        this.client = client;
        this.logs = logs;
        this.reporter = reporter;
        this.metrics = metrics;
    }

    /**
     * Stores the contract's logs in [from, to] (one eth_getLogs call, then each distinct block's header once for its
     * time). A log whose block the chain no longer has by that hash fails the pass: the range is scanned again.
     */
    Mono<Void> scan(long from, long to, Instant now) {
        if (contract.isEmpty() || from > to) {
            return Mono.empty();
        }
        return client.contractLogs(from, to, contract.get()).flatMap(found -> {
            List<SeenLog> live = found.stream().filter(log -> !log.removed()).toList();
            return Flux.fromIterable(live)
                    .map(SeenLog::blockNumber)
                    .distinct()
                    .concatMap(client::header)
                    .collectMap(BlockHeader::number)
                    .flatMapMany(headers -> Flux.fromIterable(live).map(log -> stored(log, headers)))
                    .concatMap(log -> logs.upsert(log, now))
                    .then(Mono.fromRunnable(() -> metrics.contractLogs(network, live.size())));
        });
    }

    Mono<Void> orphanAfter(long forkPoint, Instant now) {
        return contract.isEmpty() ? Mono.empty() : logs.orphanAfter(network.chainId(), forkPoint, now);
    }

    Mono<Void> settleOrphans(Instant now) {
        return contract.isEmpty() ? Mono.empty() : logs.settleOrphans(network.chainId(), now);
    }

    Mono<Void> confirm(long head, Instant now) {
        return contract.isEmpty() ? Mono.empty() : logs.confirm(network.chainId(), head, network.confirmations(), now);
    }

    /**
     * Reports every due log in order, marking each once acknowledged; stops at the first that was not delivered (a
     * 5xx, a timeout). A refused one (4xx) is not acknowledged: it is noted, sent again no sooner than a minute later,
     * and the next log follows (a refusal is the receiver's answer, which waiting does not change).
     */
    Mono<Void> report(Instant now) {
        if (contract.isEmpty()) {
            return Mono.empty();
        }
        // Read the due logs completely first: a database query is never cancelled half-read.
        return logs.unreported(network.chainId(), now, ReportOutcome.RESEND_REFUSED_AFTER)
                .collectList()
                .flatMapMany(Flux::fromIterable)
                .concatMap(log -> reporter.report(log.report()).flatMap(outcome -> {
                    if (outcome == ReportOutcome.ACKNOWLEDGED) {
                        return logs.markReported(log).thenReturn(true);
                    }
                    return outcome == ReportOutcome.REFUSED
                            ? logs.markRefused(log, now).thenReturn(true)
                            : Mono.just(false);
                }))
                .takeWhile(delivered -> delivered)
                .then();
    }

    private ContractLog stored(SeenLog log, Map<Long, BlockHeader> headers) {
        BlockHeader block = headers.get(log.blockNumber());
        if (!block.hash().equalsIgnoreCase(log.blockHash())) {
            throw new IllegalStateException("Chain " + network.chainId() + ": block " + log.blockNumber()
                    + " changed while its logs were read; scanning again");
        }
        return new ContractLog(
                network.chainId(),
                log.contract(),
                log.txHash(),
                log.logIndex(),
                log.blockNumber(),
                block.hash(),
                block.time(),
                log.topics(),
                log.data(),
                "pending",
                0,
                false,
                null);
    }
}
