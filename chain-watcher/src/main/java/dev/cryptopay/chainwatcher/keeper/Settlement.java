package dev.cryptopay.chainwatcher.keeper;

import static dev.cryptopay.chainwatcher.keeper.KeeperTransaction.ABANDONED;
import static dev.cryptopay.chainwatcher.keeper.KeeperTransaction.CONFIRMED;
import static dev.cryptopay.chainwatcher.keeper.KeeperTransaction.MINED;
import static dev.cryptopay.chainwatcher.keeper.KeeperTransaction.PENDING;
import static dev.cryptopay.chainwatcher.keeper.KeeperTransaction.REPLACED;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.scan.ChainClient;
import dev.cryptopay.chainwatcher.scan.ChainClient.Receipt;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Settles the keeper's transactions of earlier passes (and of earlier runs: this is also what a restart does first),
 * before anything new is sent. Per keeper and nonce, the transaction and its replacements:
 * <ul>
 *   <li>one has a receipt: it is mined, the others are abandoned (only one transaction per nonce is ever mined); once
 *       the network's confirmations deep it is confirmed and its subscription read again (a reverted collect counts
 *       as a failure of the subscription in a row: see {@link Collector});</li>
 *   <li>none has, yet the chain counts the nonce as used: another transaction took it; all are abandoned;</li>
 *   <li>the newest has waited {@code stuck-after} (chain time) and a node accepted it: it is replaced, same nonce,
 *       fees raised by 12.5 % — unless that raise would pass the network's fee ceiling, when it is left to wait
 *       (counted in {@code chain_watcher_keeper_fee_ceiling_total});</li>
 *   <li>else, if the node does not know the newest (dropped, refused, or a crash came before the broadcast): it is
 *       broadcast again as recorded. A transaction no node ever accepted is never raised: an outage of the RPC node
 *       must not drive fees up.</li>
 * </ul>
 * A mined one whose receipt disappeared (its block was replaced) is pending again. Transactions of another key (a key
 * that was replaced) cannot be replaced: they are given up after {@code stuck-after}; should one still be mined, the
 * contract charges a period only once, so a late collect costs gas, never a second payment.
 */
final class Settlement {

    private static final Logger log = LoggerFactory.getLogger(Settlement.class);

    private record Looked(KeeperTransaction tx, Optional<Receipt> receipt) {}

    private final Network network;
    private final ChainClient client;
    private final String keeper;
    private final KeeperTransactionRepository transactions;
    private final KeptSubscriptionRepository subscriptions;
    private final TransactionSender sender;
    private final KeeperMetrics metrics;
    private final Duration stuckAfter;
    private final Fees ceiling;
    private final int limit;
    private final int giveUpAfter;

    Settlement(
            Network network,
            ChainClient client,
            String keeper,
            KeeperTransactionRepository transactions,
            KeptSubscriptionRepository subscriptions,
            TransactionSender sender,
            KeeperMetrics metrics,
            Duration stuckAfter,
            int limit,
            int giveUpAfter) {
        this.network = network;
        this.client = client;
        this.keeper = keeper;
        this.transactions = transactions;
        this.subscriptions = subscriptions;
        this.sender = sender;
        this.metrics = metrics;
        this.stuckAfter = stuckAfter;
        this.ceiling = Fees.ceiling(network);
        this.limit = limit;
        this.giveUpAfter = giveUpAfter;
    }

    /** Settles the open transactions (the {@code limit} lowest nonces); answers how many replacements it sent. */
    Mono<Integer> settle(Pass pass, int sendBudget) {
        AtomicInteger budget = new AtomicInteger(sendBudget);
        return transactions
                .open(network.chainId(), limit)
                .collect(Collectors.groupingBy(
                        KeeperTransaction::keeperAddress,
                        LinkedHashMap::new,
                        Collectors.groupingBy(KeeperTransaction::nonce, LinkedHashMap::new, Collectors.toList())))
                .flatMapMany(byKeeper -> Flux.fromIterable(byKeeper.entrySet()))
                .concatMap(nonces -> client.transactionCount(nonces.getKey(), false)
                        .flatMapMany(used -> Flux.fromIterable(nonces.getValue().values())
                                .concatMap(group -> settle(group, used.longValueExact(), pass, budget))))
                .then(Mono.fromSupplier(() -> sendBudget - budget.get()));
    }

    private Mono<Void> settle(List<KeeperTransaction> group, long usedNonces, Pass pass, AtomicInteger budget) {
        return Flux.fromIterable(group)
                .concatMap(tx -> client.receipt(tx.txHash()).map(receipt -> new Looked(tx, receipt)))
                .filter(looked -> looked.receipt().isPresent())
                .next()
                .map(looked -> mined(looked.tx(), looked.receipt().orElseThrow(), group, pass))
                .defaultIfEmpty(Mono.defer(() -> unmined(group, usedNonces, pass, budget)))
                .flatMap(next -> next);
    }

    private Mono<Void> mined(KeeperTransaction tx, Receipt receipt, List<KeeperTransaction> group, Pass pass) {
        Mono<Void> mark =
                tx.status().equals(MINED) && Long.valueOf(receipt.blockNumber()).equals(tx.blockNumber())
                        ? Mono.empty()
                        : transactions.mined(tx, receipt.blockNumber(), receipt.succeeded(), pass.now());
        Mono<Void> others = Flux.fromIterable(group)
                .filter(other -> !other.txHash().equals(tx.txHash()))
                .concatMap(other -> abandon(other, pass))
                .then();
        boolean deep = pass.head() - receipt.blockNumber() + 1 >= network.confirmations();
        // The others first: the unique indexes allow one pending or mined transaction per nonce and subscription.
        return others.then(mark).then(deep ? confirm(tx, receipt, pass) : Mono.empty());
    }

    private Mono<Void> confirm(KeeperTransaction tx, Receipt receipt, Pass pass) {
        Mono<Void> failure = tx.collects() && !receipt.succeeded()
                ? subscriptions
                        .failed(
                                network.chainId(),
                                tx.subscriptionId(),
                                false,
                                pass.chainTime(),
                                Duration.ZERO,
                                giveUpAfter,
                                pass.now())
                        .doOnNext(givenUp -> {
                            if (givenUp) {
                                metrics.givenUp(network);
                            }
                        })
                        .then()
                : Mono.empty();
        return transactions
                .settle(tx, CONFIRMED, pass.now())
                .then(readAgain(tx, pass))
                .then(failure)
                .doOnSuccess(done -> {
                    if (!tx.collects()) {
                        return;
                    }
                    if (receipt.succeeded()) {
                        metrics.confirmed(network);
                        return;
                    }
                    metrics.reverted(network);
                    log.warn(
                            "Chain {}: keeper collect {} of subscription {} reverted on chain (block {}); its state is"
                                    + " read again",
                            network.chainId(),
                            tx.txHash(),
                            tx.subscriptionId(),
                            receipt.blockNumber());
                });
    }

    private Mono<Void> unmined(List<KeeperTransaction> group, long usedNonces, Pass pass, AtomicInteger budget) {
        KeeperTransaction newest = group.stream()
                .filter(tx -> !tx.status().equals(REPLACED))
                .findFirst()
                .orElse(group.get(group.size() - 1));
        if (newest.nonce() < usedNonces) {
            log.info(
                    "Chain {}: nonce {} of keeper {} was used by a transaction not recorded here; its {} transaction(s)"
                            + " are abandoned",
                    network.chainId(),
                    newest.nonce(),
                    newest.keeperAddress(),
                    group.size());
            return Flux.fromIterable(group).concatMap(tx -> abandon(tx, pass)).then();
        }
        Mono<Void> unmark = newest.status().equals(MINED)
                ? transactions
                        .settle(newest, PENDING, pass.now())
                        .doOnSuccess(done -> log.warn(
                                "Chain {}: keeper transaction {} is no longer in block {} (reorganisation); pending"
                                        + " again",
                                network.chainId(),
                                newest.txHash(),
                                newest.blockNumber()))
                : Mono.empty();
        boolean stuck = !pass.chainTime().isBefore(newest.sentChainTime().plus(stuckAfter));
        if (!newest.keeperAddress().equals(keeper)) {
            return stuck
                    ? Flux.fromIterable(group)
                            .concatMap(tx -> abandon(tx, pass))
                            .then()
                    : unmark;
        }
        if (stuck && budget.get() > 0 && newest.accepted()) {
            Optional<Fees> raised = newest.fees().raisedWithin(pass.fees(), ceiling);
            if (raised.isPresent()) {
                return unmark.then(sender.replace(pass, newest, raised.get()))
                        .doOnNext(replaced -> {
                            if (replaced) {
                                budget.decrementAndGet();
                                metrics.replaced(network);
                            }
                        })
                        .then();
            }
            metrics.feeCeiling(network);
            log.warn(
                    "Chain {}: keeper transaction {} (nonce {}) is stuck at {} wei/gas; raising it would pass the fee"
                            + " ceiling of {}, so it waits for fees to fall",
                    network.chainId(),
                    newest.txHash(),
                    newest.nonce(),
                    newest.fees().maxFeePerGas(),
                    ceiling.maxFeePerGas());
        } else if (stuck && !newest.accepted()) {
            log.info(
                    "Chain {}: keeper transaction {} (nonce {}) was never accepted by a node; broadcast again as it"
                            + " is, fees unchanged",
                    network.chainId(),
                    newest.txHash(),
                    newest.nonce());
        }
        return unmark.then(client.knows(newest.txHash())).flatMap(known -> {
            if (!known) {
                return sender.broadcast(newest);
            }
            return newest.accepted() ? Mono.<Void>empty() : transactions.accepted(newest);
        });
    }

    private Mono<Void> abandon(KeeperTransaction tx, Pass pass) {
        return transactions.settle(tx, ABANDONED, pass.now()).then(readAgain(tx, pass));
    }

    /** The collected subscription's state is read again at the next check. */
    private Mono<Void> readAgain(KeeperTransaction tx, Pass pass) {
        return tx.collects()
                ? subscriptions.markStale(network.chainId(), tx.subscriptionId(), pass.now())
                : Mono.empty();
    }
}
