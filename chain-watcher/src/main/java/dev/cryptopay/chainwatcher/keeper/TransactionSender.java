package dev.cryptopay.chainwatcher.keeper;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.scan.ChainClient;
import java.math.BigInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Sends the keeper's transactions on one chain: signs, <b>records, then broadcasts</b>. A transaction is in the
 * database before any node sees it, so after a crash between the two it is broadcast again as it is (same bytes, same
 * hash), never signed anew; and an instance whose record is refused (another one recorded first) broadcasts nothing.
 * A node refusing a broadcast (or not answering) is logged, counted ({@code chain_watcher_keeper_broadcasts_refused_total})
 * and left to the next pass: the record stays and is broadcast again as it is. A broadcast the node answers with the
 * hash marks the record {@code accepted}; only an accepted transaction is ever replaced with higher fees.
 */
final class TransactionSender {

    private static final Logger log = LoggerFactory.getLogger(TransactionSender.class);

    /** The gas of a plain transfer: what a transaction that only uses up a nonce needs. */
    private static final BigInteger TRANSFER_GAS = BigInteger.valueOf(21_000);

    private final Network network;
    private final String contract;
    private final ChainClient client;
    private final Signer signer;
    private final KeeperTransactionRepository transactions;
    private final KeeperMetrics metrics;
    private final BigInteger collectGas;

    TransactionSender(
            Network network,
            ChainClient client,
            Signer signer,
            KeeperTransactionRepository transactions,
            KeeperMetrics metrics,
            long collectGasLimit) {
        this.network = network;
        this.contract = network.contract().orElseThrow();
        this.client = client;
        this.signer = signer;
        this.transactions = transactions;
        this.metrics = metrics;
        this.collectGas = BigInteger.valueOf(collectGasLimit);
    }

    /**
     * Simulates {@code collect(id)} exactly as it would be sent: from the keeper, with the collect gas limit and
     * {@code fees} (so the node checks the key can pay for it, and the fee against the base fee, as it would a real
     * transaction; such a refusal fails the Mono).
     */
    Mono<ChainClient.CallResult> simulateCollect(String subscriptionId, Fees fees) {
        return client.call(
                signer.address(),
                contract,
                OnChainSubscription.collect(subscriptionId),
                collectGas,
                fees.maxFeePerGas(),
                fees.priorityFeePerGas());
    }

    /** Sends a new collect with {@code nonce}. */
    Mono<Void> collect(Pass pass, long nonce, String subscriptionId) {
        KeeperTransaction tx = collectTransaction(pass, nonce, subscriptionId, pass.fees());
        return transactions.record(tx).then(broadcast(tx));
    }

    /**
     * Replaces a stuck transaction with the same nonce and {@code fees} (raised by 12.5 % at least, within the
     * network's ceiling: {@link Fees#raisedWithin}). Collecting the same subscription
     * again when that would still succeed, else a 0-value transfer to the keeper itself that only uses up the nonce
     * (a collect that would now revert is never sent, and the nonce must not stay a gap that holds back every later
     * transaction). Answers whether it was recorded and broadcast (false: another pass settled the stuck one first).
     */
    Mono<Boolean> replace(Pass pass, KeeperTransaction stuck, Fees fees) {
        // A simulation the node refuses outright (the key's balance, the fee against the base fee): not now.
        Mono<Boolean> stillCollects = stuck.collects()
                ? simulateCollect(stuck.subscriptionId(), fees)
                        .map(result -> !result.failed())
                        .onErrorResume(refused -> {
                            log.warn(
                                    "Chain {}: replacing keeper transaction {} waits: its collect could not be"
                                            + " simulated: {}",
                                    network.chainId(),
                                    stuck.txHash(),
                                    refused.toString());
                            return Mono.empty();
                        })
                : Mono.just(false);
        return stillCollects
                .flatMap(collects -> {
                    KeeperTransaction replacement = collects
                            ? collectTransaction(pass, stuck.nonce(), stuck.subscriptionId(), fees)
                            : signed(pass, stuck.nonce(), null, signer.address(), "0x", TRANSFER_GAS, fees);
                    return transactions.recordReplacement(stuck, replacement).flatMap(recorded -> {
                        if (!recorded) {
                            return Mono.just(false);
                        }
                        log.info(
                                "Chain {}: keeper transaction {} (nonce {}) unmined since {}; replaced by {} ({}, max fee {}"
                                        + " wei/gas)",
                                network.chainId(),
                                stuck.txHash(),
                                stuck.nonce(),
                                stuck.sentChainTime(),
                                replacement.txHash(),
                                collects ? "the same collect" : "a transfer to itself",
                                fees.maxFeePerGas());
                        return broadcast(replacement).thenReturn(true);
                    });
                })
                .defaultIfEmpty(false);
    }

    private KeeperTransaction collectTransaction(Pass pass, long nonce, String subscriptionId, Fees fees) {
        return signed(
                pass, nonce, subscriptionId, contract, OnChainSubscription.collect(subscriptionId), collectGas, fees);
    }

    private KeeperTransaction signed(
            Pass pass, long nonce, String subscriptionId, String to, String data, BigInteger gas, Fees fees) {
        return KeeperTransaction.signed(
                network.chainId(),
                signer.address(),
                nonce,
                subscriptionId,
                gas,
                fees,
                signer.sign(nonce, to, data, gas, fees),
                pass);
    }

    /**
     * Broadcasts a recorded transaction, as it is (again when a node lacks it: dropped, or never reached), and marks
     * it accepted once a node took it. A refusal or an RPC failure is logged and counted; the next pass looks at the
     * record again.
     */
    Mono<Void> broadcast(KeeperTransaction tx) {
        return client.sendRaw(tx.raw())
                .doOnNext(hash -> log.debug("Chain {}: broadcast keeper transaction {}", network.chainId(), hash))
                .flatMap(hash -> tx.accepted() ? Mono.<Void>empty() : transactions.accepted(tx))
                .onErrorResume(failure -> {
                    metrics.broadcastRefused(network);
                    log.warn(
                            "Chain {}: broadcasting keeper transaction {} (nonce {}) failed; it stays recorded and"
                                    + " is broadcast again or replaced: {}",
                            network.chainId(),
                            tx.txHash(),
                            tx.nonce(),
                            failure.toString());
                    return Mono.empty();
                })
                .then();
    }
}
