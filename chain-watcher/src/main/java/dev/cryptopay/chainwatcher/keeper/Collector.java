package dev.cryptopay.chainwatcher.keeper;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.scan.ChainClient;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Looks at the subscriptions the platform answers for ({@link Scope}) whose time came and collects those due, by chain
 * time. Each one: read its state
 * ({@code getSubscription}) and store it; inactive, it is left alone; not due yet, it is looked at again at
 * {@code nextDue}; due, {@code collect} is simulated exactly as it would be sent, then
 * <ul>
 *   <li>the simulation (with the pass's fees) fails (it would revert): not sent, counted as skipped, looked at again
 *       after {@code retry-interval}, doubled with each failure in a row;</li>
 *   <li>it would pull the period: sent, and the subscription's failures are forgotten;</li>
 *   <li>it would change the subscription anyway (count missed periods after the grace, end it): sent, and counted as
 *       a failure in a row (gas spent, nothing paid);</li>
 *   <li>the pull is refused (allowance or balance too small) within the grace: not sent, looked at again after
 *       {@code retry-interval}, and at the latest just after the grace, when it is sent once to record the miss.</li>
 * </ul>
 * After {@code give-up-after} failures in a row the keeper gives up on the subscription until a log of it comes
 * ({@code chain_watcher_keeper_given_up_total}). A simulation the node refuses outright (the key's balance, the fee
 * against the base fee) is no failure of the subscription: it is looked at again next pass.
 * New transactions take the next nonce: the highest this keeper recorded plus one, or the node's pending count if
 * higher.
 */
final class Collector {

    private static final Logger log = LoggerFactory.getLogger(Collector.class);

    private final Network network;
    private final String contract;
    private final ChainClient client;
    private final String keeper;
    private final KeptSubscriptionRepository subscriptions;
    private final KeeperTransactionRepository transactions;
    private final TransactionSender sender;
    private final KeeperMetrics metrics;
    private final ChainWatcherProperties.Keeper settings;
    private final Scope scope;

    Collector(
            Network network,
            ChainClient client,
            String keeper,
            KeptSubscriptionRepository subscriptions,
            KeeperTransactionRepository transactions,
            TransactionSender sender,
            KeeperMetrics metrics,
            ChainWatcherProperties.Keeper settings,
            Scope scope) {
        this.network = network;
        this.contract = network.contract().orElseThrow();
        this.client = client;
        this.keeper = keeper;
        this.subscriptions = subscriptions;
        this.transactions = transactions;
        this.sender = sender;
        this.metrics = metrics;
        this.settings = settings;
        this.scope = scope;
    }

    /**
     * Looks at up to {@code max-checks-per-pass} subscriptions the platform answers for, each merchant in turn, and
     * sends at most {@code sendBudget} collects; {@link Scope} confirms them first. Once the budget is spent the pass
     * stops reading: those left keep their turn for the next pass.
     */
    Mono<Void> collect(Pass pass, int sendBudget) {
        if (sendBudget <= 0) {
            return Mono.empty();
        }
        return subscriptions
                .toCheck(network.chainId(), contract, pass.chainTime(), settings.maxChecksPerPass())
                .collectList()
                .flatMap(candidates -> scope.confirm(candidates, pass))
                .filter(due -> !due.isEmpty())
                .flatMap(due -> Mono.zip(
                                transactions.nextNonce(network.chainId(), keeper),
                                client.transactionCount(keeper, true))
                        .flatMap(nonces -> {
                            AtomicLong nonce = new AtomicLong(
                                    Math.max(nonces.getT1(), nonces.getT2().longValueExact()));
                            AtomicInteger budget = new AtomicInteger(sendBudget);
                            return Flux.fromIterable(due)
                                    .concatMap(kept -> check(kept.subscriptionId(), pass, nonce, budget))
                                    .then();
                        }));
    }

    private Mono<Void> check(String id, Pass pass, AtomicLong nonce, AtomicInteger budget) {
        long chain = network.chainId();
        if (budget.get() <= 0) {
            // Every send of the pass is spent: the rest are not even read (an eth_call each); they keep their turn and
            // come first in the next pass.
            return Mono.empty();
        }
        return client.call(keeper, contract, OnChainSubscription.read(id), null).flatMap(read -> {
            if (read.failed()) {
                log.info(
                        "Chain {}: subscription {} is unknown to the contract ({}); not collected",
                        chain,
                        id,
                        read.failure());
                return subscriptions.unknown(chain, id, pass.now());
            }
            OnChainSubscription state = OnChainSubscription.decode(read.value());
            Instant now = pass.chainTime();
            if (!state.active() || !state.due(now)) {
                return subscriptions.read(chain, id, state, state.nextDue(), pass.now());
            }
            return sender.simulateCollect(id, pass.fees())
                    .map(Optional::of)
                    .onErrorResume(refused -> {
                        // The node refused the call as it would the transaction (the key's balance, the fee against
                        // the base fee): nothing is wrong with the subscription; the next pass looks again.
                        log.warn(
                                "Chain {}: collect of subscription {} could not be simulated with the pass's fees; not"
                                        + " sent this pass: {}",
                                chain,
                                id,
                                refused.toString());
                        return Mono.just(Optional.empty());
                    })
                    .flatMap(simulated -> simulated.isPresent()
                            ? simulated(id, state, simulated.get(), pass, nonce, budget)
                            : subscriptions.read(chain, id, state, now, pass.now()));
        });
    }

    private Mono<Void> simulated(
            String id,
            OnChainSubscription state,
            ChainClient.CallResult simulated,
            Pass pass,
            AtomicLong nonce,
            AtomicInteger budget) {
        long chain = network.chainId();
        Instant now = pass.chainTime();
        if (simulated.failed()) {
            metrics.skipped(network);
            log.warn(
                    "Chain {}: collect of subscription {} would fail ({}); not sent, looked at again later",
                    chain,
                    id,
                    simulated.failure());
            return subscriptions
                    .read(chain, id, state, now.plus(settings.retryInterval()), pass.now())
                    .then(failed(id, true, pass));
        }
        boolean charges = OnChainSubscription.charged(simulated.value());
        if (charges || state.collectChangesItAnyway(now)) {
            budget.decrementAndGet();
            // A collect that only records missed periods costs gas for nothing paid: a failure in a row too.
            Mono<Void> outcome = charges ? subscriptions.succeeded(chain, id, pass.now()) : failed(id, false, pass);
            return subscriptions
                    .read(chain, id, state, now, pass.now())
                    .then(sender.collect(pass, nonce.getAndIncrement(), id))
                    .doOnSuccess(sent -> metrics.sent(network))
                    .then(outcome);
        }
        Instant retry = state.retryAt(now, settings.retryInterval());
        log.debug("Chain {}: pull of subscription {} refused (allowance or balance); again at {}", chain, id, retry);
        return subscriptions.read(chain, id, state, retry, pass.now());
    }

    /** Counts a failure of the subscription's collect in a row; gives up on it at {@code give-up-after}. */
    private Mono<Void> failed(String id, boolean backOff, Pass pass) {
        return subscriptions
                .failed(
                        network.chainId(),
                        id,
                        backOff,
                        pass.chainTime(),
                        settings.retryInterval(),
                        settings.giveUpAfter(),
                        pass.now())
                .doOnNext(givenUp -> {
                    if (givenUp) {
                        metrics.givenUp(network);
                        log.warn(
                                "Chain {}: gave up on subscription {} after {} failed collects in a row; it is looked"
                                        + " at again once a log of it comes",
                                network.chainId(),
                                id,
                                settings.giveUpAfter());
                    }
                })
                .then();
    }
}
