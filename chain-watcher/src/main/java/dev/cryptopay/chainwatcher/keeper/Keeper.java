package dev.cryptopay.chainwatcher.keeper;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.report.SubscriptionsReporter;
import dev.cryptopay.chainwatcher.scan.ChainClient;
import dev.cryptopay.chainwatcher.scan.LeasedWork;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The keeper of one chain: calls its subscription contract's {@code collect} at each due time, signing with a gas-only
 * key. It runs at the end of the chain's pass ({@link LeasedWork}), so on one instance at a time. Each pass:
 * <ol>
 *   <li>reads the head block (the chain's time, which alone decides what is due; its base fee), the fees to offer
 *       (never above the network's ceiling, {@code keeper-max-fee-gwei} and {@code keeper-max-priority-fee-gwei}) and
 *       the key's balance;</li>
 *   <li>takes the contract logs stored since the last pass into the subscriptions it looks after;</li>
 *   <li>settles the transactions sent before ({@link Settlement}): receipts, stuck ones replaced;</li>
 *   <li>asks subscriptions-service which of the subscriptions whose time came the platform answers for
 *       ({@link Scope}), looks at those and collects those due ({@link Collector}), within what is left of
 *       {@code max-sends-per-pass}, each merchant in turn.</li>
 * </ol>
 */
final class Keeper implements LeasedWork {

    private static final Logger log = LoggerFactory.getLogger(Keeper.class);

    private final Network network;
    private final String contract;
    private final ChainClient client;
    private final Signer signer;
    private final KeptSubscriptionRepository subscriptions;
    private final KeeperTransactionRepository transactions;
    private final Settlement settlement;
    private final Collector collector;
    private final KeeperMetrics metrics;
    private final int maxSends;
    private final Fees ceiling;
    private final Clock clock;

    Keeper(
            Network network,
            ChainClient client,
            Signer signer,
            ChainWatcherProperties.Keeper settings,
            KeptSubscriptionRepository subscriptions,
            KeeperTransactionRepository transactions,
            SubscriptionsReporter subscriptionsService,
            KeeperMetrics metrics,
            Clock clock) {
        this.network = network;
        this.contract = network.contract().orElseThrow();
        this.client = client;
        this.signer = signer;
        this.subscriptions = subscriptions;
        this.transactions = transactions;
        TransactionSender sender =
                new TransactionSender(network, client, signer, transactions, metrics, settings.collectGasLimit());
        this.settlement = new Settlement(
                network,
                client,
                signer.address(),
                transactions,
                subscriptions,
                sender,
                metrics,
                settings.stuckAfter(),
                settings.maxChecksPerPass(),
                settings.giveUpAfter());
        this.collector = new Collector(
                network,
                client,
                signer.address(),
                subscriptions,
                transactions,
                sender,
                metrics,
                settings,
                new Scope(network, subscriptionsService, subscriptions, metrics));
        this.metrics = metrics;
        this.maxSends = settings.maxSendsPerPass();
        this.ceiling = Fees.ceiling(network);
        this.clock = clock;
        metrics.register(network);
    }

    /** The key's address. */
    String address() {
        return signer.address();
    }

    @Override
    public Mono<Void> afterPass(long head) {
        return client.blockFees(head)
                .flatMap(block -> (block.baseFeePerGas() == null ? client.gasPrice() : client.maxPriorityFeePerGas())
                        .map(tip -> new Pass(
                                head, block.time(), offer(Fees.current(block.baseFeePerGas(), tip)), clock.instant())))
                .zipWith(client.balance(signer.address()))
                .flatMap(read -> {
                    Pass pass = read.getT1();
                    return subscriptions
                            .takeLogs(network.chainId(), contract, pass.chainTime(), pass.now())
                            .then(settlement.settle(pass, maxSends))
                            .flatMap(replaced -> collector.collect(pass, maxSends - replaced))
                            .then(transactions.oldestUnmined(network.chainId()))
                            .doOnNext(oldest -> metrics.read(network, read.getT2(), oldest.orElse(null)));
                })
                .then();
    }

    /** What the pass offers: the fees the chain asks now, within the network's ceiling (counted when it holds back). */
    private Fees offer(Fees wanted) {
        if (!wanted.above(ceiling)) {
            return wanted;
        }
        metrics.feeCeiling(network);
        log.warn(
                "Chain {}: fees of {} wei/gas (tip {}) are above the keeper's ceiling of {} (tip {}); offering the"
                        + " ceiling, so collects may wait until fees fall",
                network.chainId(),
                wanted.maxFeePerGas(),
                wanted.priorityFeePerGas(),
                ceiling.maxFeePerGas(),
                ceiling.priorityFeePerGas());
        return wanted.capped(ceiling);
    }

    @Override
    public String toString() {
        return "Keeper[chain " + network.chainId() + ", " + signer.address() + "]";
    }
}
