package dev.cryptopay.chainwatcher.keeper;

import static dev.cryptopay.testsupport.chain.SubscriptionContract.CHARGED;
import static dev.cryptopay.testsupport.chain.SubscriptionContract.GRACE;
import static dev.cryptopay.testsupport.chain.SubscriptionContract.INTERVAL;
import static dev.cryptopay.testsupport.chain.SubscriptionContract.MISSED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.cryptopay.chainwatcher.ChainWatcherTestBase;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.config.TestNetworks;
import dev.cryptopay.chainwatcher.report.SubscriptionsReporter;
import dev.cryptopay.chainwatcher.scan.ChainClient;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.chain.RpcProxy;
import dev.cryptopay.testsupport.chain.SubscriptionContract;
import dev.cryptopay.testsupport.chain.SubscriptionContract.Account;
import dev.cryptopay.testsupport.webhook.WebhookReceiver.Reply;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Keys;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;

/**
 * The keeper on the real dev chain and database: collects at the due time (chain time) and not before, retries a
 * refused pull within the grace and records the miss once after it, never sends a second collect for a recorded one
 * (also after a restart) and replaces a stuck one with the same nonce and higher fees, leaves cancelled subscriptions
 * and collects that would revert alone, and exports its balance. It collects only what subscriptions-service says the
 * platform answers for (here a stand-in, {@link #standInForSubscriptionsService}): a subscription nobody bound gets no
 * transaction, a stopped one none from the next pass, and nothing at all is collected while the service does not
 * answer; each merchant takes its turn. Each test makes keepers of its own fresh key (10 ETH, from a key file); the
 * shared chain holds other tests' subscriptions too, which these keepers collect as well when bound, so tests look
 * only at their own subscription's transactions.
 */
class KeeperTest extends ChainWatcherTestBase {

    private static final SubscriptionContract CONTRACT = new SubscriptionContract(CHAIN);
    private static final long CHAIN_ID = DevChain.CHAIN_ID;
    private static final BigInteger TEN_ETH = new BigInteger("10000000000000000000");
    private static final ChainWatcherProperties.Keeper SETTINGS = new ChainWatcherProperties.Keeper(
            true, Duration.ofSeconds(60), Duration.ofSeconds(120), 10, 100, 300_000, 5);
    private static String feeToken;
    /** The subscriptions a link holds, by id, with its merchant, as the stand-in answers. */
    private static final Map<String, UUID> KEPT = new ConcurrentHashMap<>();
    /** Subscriptions whose link stopped, with its merchant. */
    private static final Map<String, UUID> STOPPED = new ConcurrentHashMap<>();

    private static volatile boolean scopeDown;

    @TempDir
    private Path keys;

    @Autowired
    private ChainWatcherProperties properties;

    @Autowired
    private Keepers keepers;

    @Autowired
    private KeptSubscriptionRepository subscriptions;

    @Autowired
    private KeeperTransactionRepository transactions;

    private final List<ChainClient> clients = new ArrayList<>();

    @AfterEach
    void closeClients() {
        clients.forEach(ChainClient::close);
    }

    @Test
    void collectsASubscriptionAtItsDueTimeAndNotBefore() {
        String id = subscribe(CONTRACT.subscriber(3), CONTRACT.plan(0), "keeper-due");
        Keeper keeper = keeper(freshKey());
        run(keeper);
        OnChainSubscription subscribed = state(id);
        assertThat(subscriptions.find(CHAIN_ID, id).block())
                .as("known from its Subscribed log, looked at again when due")
                .extracting(KeptSubscription::active, KeptSubscription::nextDue, KeptSubscription::nextCheckAt)
                .containsExactly(true, subscribed.nextDue(), subscribed.nextDue());

        CHAIN.increaseTime(INTERVAL - 120);
        run(keeper);
        assertThat(collects(id)).as("two minutes before it is due").isEmpty();

        CHAIN.increaseTime(120);
        run(keeper);
        List<KeeperTransaction> sent = collects(id);
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0).keeperAddress()).isEqualTo(keeper.address());
        TransactionReceipt receipt = CHAIN.receipt(sent.get(0).txHash()).orElseThrow();
        assertThat(receipt.getFrom()).isEqualToIgnoringCase(keeper.address());
        assertThat(eventsOf(receipt, id)).containsExactly(CHARGED);
        assertThat(state(id).paidPeriods()).isEqualTo(2);
        assertThat(state(id).nextDue()).isEqualTo(subscribed.nextDue().plusSeconds(INTERVAL));

        CHAIN.mine(3);
        run(keeper);
        run(keeper);
        assertThat(collects(id)).extracting(KeeperTransaction::status).containsExactly("confirmed");
        assertThat(subscriptions.find(CHAIN_ID, id).block().nextCheckAt())
                .as("read again once confirmed: the next period")
                .isEqualTo(subscribed.nextDue().plusSeconds(INTERVAL));
        String scrape = prometheus();
        assertThat(metric(scrape, "chain_watcher_keeper_collects_sent_total")).isPositive();
        assertThat(metric(scrape, "chain_watcher_keeper_collects_confirmed_total"))
                .isPositive();
    }

    @Test
    void aRefusedPullIsRetriedWithinTheGraceAndTheMissIsRecordedOnceAfterIt() {
        Account subscriber = CONTRACT.subscriber(1); // approves the first period only
        String id = subscribe(subscriber, CONTRACT.plan(0), "keeper-refused");
        Keeper keeper = keeper(freshKey());
        run(keeper);
        Instant due = state(id).nextDue();

        CHAIN.increaseTime(INTERVAL);
        run(keeper);
        assertThat(collects(id)).as("the pull would be refused: nothing sent").isEmpty();
        Instant firstRetry = subscriptions.find(CHAIN_ID, id).block().nextCheckAt();
        assertThat(firstRetry).isBetween(due.plusSeconds(60), headTime().plusSeconds(60));
        CHAIN.increaseTime(60);
        run(keeper);
        assertThat(collects(id)).isEmpty();
        assertThat(subscriptions.find(CHAIN_ID, id).block().nextCheckAt())
                .as("tried again, and again in a minute")
                .isAfter(firstRetry);

        CONTRACT.allow(subscriber, DevTokens.USDC.address(), 1);
        CHAIN.increaseTime(60);
        run(keeper);
        assertThat(collects(id)).hasSize(1);
        TransactionReceipt charged = CHAIN.receipt(collects(id).get(0).txHash()).orElseThrow();
        assertThat(eventsOf(charged, id)).containsExactly(CHARGED);
        assertThat(blockTime(charged)).as("within the grace").isBefore(due.plusSeconds(GRACE));
        CHAIN.mine(3);
        run(keeper);

        // The next period: the allowance is used up again, all through the grace.
        CHAIN.increaseTime(INTERVAL);
        run(keeper);
        assertThat(collects(id)).hasSize(1);
        CHAIN.increaseTime(GRACE);
        run(keeper);
        List<KeeperTransaction> sent = collects(id);
        assertThat(sent).as("once after the grace, to record the miss").hasSize(2);
        TransactionReceipt missed = CHAIN.receipt(sent.get(1).txHash()).orElseThrow();
        assertThat(eventsOf(missed, id)).containsExactly(MISSED);
        Log log = logOf(missed, id);
        assertThat(Numeric.toBigInt(log.getData().substring(2 + 128, 2 + 192)))
                .as("Missed's missedInRow")
                .isEqualTo(BigInteger.ONE);
        assertThat(state(id).missedInRow()).isEqualTo(1);
        assertThat(state(id).nextDue()).isEqualTo(due.plusSeconds(2 * INTERVAL));

        CHAIN.mine(3);
        run(keeper);
        run(keeper);
        assertThat(collects(id)).as("the miss is recorded once").hasSize(2);
    }

    @Test
    void aRestartedKeeperNeverSendsASecondCollectAndReplacesAStuckOneWithTheSameNonceAndHigherFees() {
        String id = subscribe(CONTRACT.subscriber(3), CONTRACT.plan(0), "keeper-restart");
        Path key = freshKey();
        Keeper first = keeper(key);
        run(first);
        CHAIN.increaseTime(INTERVAL);
        scan();
        Keeper restarted;
        CONTRACT.anvil("evm_setAutomine", false);
        try {
            for (int pass = 0; pass < 10 && collects(id).isEmpty(); pass++) {
                first.afterPass(CHAIN.blockNumber()).block();
            }
            List<KeeperTransaction> sent = collects(id);
            assertThat(sent).hasSize(1);
            KeeperTransaction pending = sent.get(0);
            assertThat(CHAIN.receipt(pending.txHash()))
                    .as("held in the node's pool")
                    .isEmpty();

            restarted = keeper(key); // a new instance on the same database
            for (int pass = 0; pass < 3; pass++) {
                restarted.afterPass(CHAIN.blockNumber()).block();
            }
            assertThat(collects(id)).extracting(KeeperTransaction::txHash).containsExactly(pending.txHash());
            assertThat(nodeNonce(restarted.address()))
                    .as("the node holds nothing of the key that is not recorded")
                    .isEqualTo(transactions
                            .nextNonce(CHAIN_ID, restarted.address())
                            .block());

            CONTRACT.anvil("anvil_dropTransaction", pending.txHash());
            CHAIN.increaseTime(SETTINGS.stuckAfter().toSeconds() + 1); // a block without it
            restarted.afterPass(CHAIN.blockNumber()).block();

            List<KeeperTransaction> both = collects(id);
            assertThat(both)
                    .extracting(KeeperTransaction::txHash, KeeperTransaction::status, KeeperTransaction::nonce)
                    .containsExactly(
                            tuple(pending.txHash(), "replaced", pending.nonce()),
                            tuple(both.get(1).txHash(), "pending", pending.nonce()));
            Fees old = pending.fees();
            Fees raised = both.get(1).fees();
            assertThat(raised.maxFeePerGas().multiply(BigInteger.valueOf(8)))
                    .isGreaterThanOrEqualTo(old.maxFeePerGas().multiply(BigInteger.valueOf(9)));
            assertThat(raised.priorityFeePerGas().multiply(BigInteger.valueOf(8)))
                    .isGreaterThanOrEqualTo(old.priorityFeePerGas().multiply(BigInteger.valueOf(9)));
            assertThat(CHAIN.web3j()
                            .ethGetTransactionByHash(both.get(1).txHash())
                            .send()
                            .getTransaction())
                    .as("broadcast")
                    .isPresent();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            CONTRACT.anvil("evm_setAutomine", true);
            CHAIN.mine(1);
        }
        CHAIN.mine(3);
        run(restarted);
        List<KeeperTransaction> settled = collects(id);
        assertThat(settled).extracting(KeeperTransaction::status).containsExactly("abandoned", "confirmed");
        assertThat(eventsOf(CHAIN.receipt(settled.get(1).txHash()).orElseThrow(), id))
                .containsExactly(CHARGED);
        assertThat(state(id).paidPeriods()).as("the period was paid once").isEqualTo(2);
        assertThat(metric(prometheus(), "chain_watcher_keeper_collects_replaced_total"))
                .isPositive();
    }

    @Test
    void aCancelledSubscriptionIsNotCollected() {
        Account subscriber = CONTRACT.subscriber(3);
        TransactionReceipt subscribed = CONTRACT.subscribe(subscriber, CONTRACT.plan(0), "keeper-cancelled");
        String id = bound(idOf(subscribed), UUID.randomUUID());
        CONTRACT.cancel(subscriber, SubscriptionContract.subscriptionId(subscribed));
        Keeper keeper = keeper(freshKey());
        run(keeper);
        assertThat(subscriptions.find(CHAIN_ID, id).block())
                .extracting(KeptSubscription::active, KeptSubscription::stale)
                .as("stopped by its Cancelled log")
                .containsExactly(false, false);

        CHAIN.increaseTime(INTERVAL + GRACE + 1);
        run(keeper);
        assertThat(collects(id)).isEmpty();
    }

    @Test
    void aTokenThatDeliversLessIsARefusedPullAndItsMissIsRecordedOnceAfterTheGrace() {
        // A token keeping a fee on each transfer: the contract refuses the pull (a short delivery), without reverting.
        Account subscriber = CONTRACT.freshAccount();
        CONTRACT.allow(subscriber, feeToken(), 3);
        String id = subscribe(subscriber, CONTRACT.plan(feeToken(), 3600, 0), "keeper-short");
        Keeper keeper = keeper(freshKey());
        run(keeper);
        Instant due = state(id).nextDue();

        CHAIN.increaseTime(3600);
        run(keeper);
        assertThat(collects(id))
                .as("within the grace: the pull is refused, nothing sent")
                .isEmpty();
        assertThat(subscriptions.find(CHAIN_ID, id).block().nextCheckAt())
                .as("tried again within the grace")
                .isBefore(due.plusSeconds(GRACE));

        CHAIN.increaseTime(GRACE + 1);
        run(keeper);
        List<KeeperTransaction> sent = collects(id);
        assertThat(sent).as("once after the grace, to record the miss").hasSize(1);
        TransactionReceipt missed = CHAIN.receipt(sent.get(0).txHash()).orElseThrow();
        assertThat(missed.isStatusOK()).as("no revert").isTrue();
        assertThat(eventsOf(missed, id)).containsExactly(MISSED);
        assertThat(state(id).paidPeriods()).isZero();
    }

    @Test
    void aSubscriptionNobodyBoundGetsNoTransactionHoweverDueItIs() {
        // Anyone may sign a plan for the contract and subscribe to it: the logs name it like any other.
        String id = idOf(CONTRACT.subscribe(CONTRACT.subscriber(3), CONTRACT.plan(0), "keeper-stranger"));
        Keeper keeper = keeper(freshKey());
        long asked = scopeQuestions();
        run(keeper);
        assertThat(scopeQuestions()).as("the keeper asked about it").isGreaterThan(asked);
        KeptSubscription stranger = subscriptions.find(CHAIN_ID, id).block();
        assertThat(stranger.scope()).isEqualTo("foreign");
        assertThat(stranger.nextDue()).as("not even read").isNull();

        CHAIN.increaseTime(INTERVAL + GRACE + 1);
        clock.set(clock.instant().plus(Duration.ofMinutes(30))); // asked again meanwhile: still nobody's
        run(keeper);
        assertThat(collects(id)).isEmpty();
        assertThat(state(id).paidPeriods())
                .as("only the first period, paid by subscribe")
                .isEqualTo(1);
        assertThat(state(id).missedInRow())
                .as("and no miss recorded by the platform either")
                .isZero();
    }

    @Test
    void aStoppedSubscriptionIsNotCollectedFromTheNextPassAndARestartedOneIsAgain() {
        String id = subscribe(CONTRACT.subscriber(3), CONTRACT.plan(0), "keeper-stopped");
        Keeper keeper = keeper(freshKey());
        run(keeper);
        assertThat(subscriptions.find(CHAIN_ID, id).block().scope()).isEqualTo("kept");

        STOPPED.put(id, KEPT.remove(id)); // the merchant stops the link
        CHAIN.increaseTime(INTERVAL);
        run(keeper);
        assertThat(collects(id)).as("due, but stopped").isEmpty();
        KeptSubscription stopped = subscriptions.find(CHAIN_ID, id).block();
        assertThat(stopped.scope()).isEqualTo("foreign");

        bound(id, STOPPED.get(id)); // restarted
        run(keeper);
        assertThat(collects(id)).as("asked again only after ten seconds").isEmpty();
        clock.set(clock.instant().plus(Duration.ofMinutes(2)));
        run(keeper);
        assertThat(collects(id)).hasSize(1);
        assertThat(eventsOf(CHAIN.receipt(collects(id).get(0).txHash()).orElseThrow(), id))
                .containsExactly(CHARGED);
    }

    @Test
    void withoutAnAnswerFromSubscriptionsServiceNothingIsCollected() {
        String id = subscribe(CONTRACT.subscriber(3), CONTRACT.plan(0), "keeper-unanswered");
        Keeper keeper = keeper(freshKey());
        run(keeper);
        double unanswered = counter("chain_watcher_keeper_scope_unanswered_total");
        scopeDown = true;
        CHAIN.increaseTime(INTERVAL);
        run(keeper);
        assertThat(collects(id)).isEmpty();
        assertThat(counter("chain_watcher_keeper_scope_unanswered_total")).isGreaterThan(unanswered);

        scopeDown = false;
        run(keeper);
        assertThat(collects(id))
                .as("collected once it answers, within the grace")
                .hasSize(1);
    }

    @Test
    void eachMerchantTakesItsTurnInAPass() {
        KEPT.clear(); // other tests' subscriptions are nobody's now: only this test's merchants compete
        UUID busy = UUID.randomUUID();
        List<String> busyOnes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            busyOnes.add(bound(
                    idOf(CONTRACT.subscribe(CONTRACT.subscriber(3), CONTRACT.plan(0), "keeper-busy-" + i)), busy));
        }
        String quiet = subscribe(CONTRACT.subscriber(3), CONTRACT.plan(0), "keeper-quiet");
        ChainWatcherProperties.Keeper twoAPass = new ChainWatcherProperties.Keeper(
                true, Duration.ofSeconds(60), Duration.ofSeconds(120), 2, 100, 300_000, 5);
        try (RpcProxy counting = new RpcProxy(CHAIN.rpcUrl())) {
            Network dev = properties.networks().get(0);
            Keeper keeper = keeper(
                    freshKey(), TestNetworks.of(dev).withRpcUrl(counting.url()).applyTo(dev), twoAPass);
            run(keeper); // learns them all, reads them

            CHAIN.increaseTime(INTERVAL);
            scan();
            counting.reset();
            keeper.afterPass(CHAIN.blockNumber()).block();
            assertThat(collects(quiet))
                    .as("the quiet merchant's one subscription is collected in the first pass, with one of the busy's")
                    .hasSize(1);
            assertThat(busyOnes.stream().filter(id -> !collects(id).isEmpty()).count())
                    .isEqualTo(1);
            assertThat(counting.calls().get("eth_call"))
                    .as("two read and simulated; once the pass's two sends were spent the other three were not read")
                    .isEqualTo(4);
        }
    }

    @Test
    void theFeeCeilingHoldsBackWhatTheKeeperOffersAndAStuckCollectIsNotRaisedPastIt() throws IOException {
        String id = subscribe(CONTRACT.subscriber(3), CONTRACT.plan(0), "keeper-ceiling");
        Path key = freshKey();
        run(keeper(key)); // learns it
        double held = counter("chain_watcher_keeper_fee_ceiling_total");
        CONTRACT.anvil("evm_setAutomine", false);
        try {
            CHAIN.increaseTime(INTERVAL);
            // The keeper would offer twice the base fee plus the tip; this network allows the base fee plus the tip.
            BigInteger base = CHAIN.web3j()
                    .ethGetBlockByNumber(DefaultBlockParameterName.LATEST, false)
                    .send()
                    .getBlock()
                    .getBaseFeePerGas();
            BigInteger tip = CHAIN.web3j().ethMaxPriorityFeePerGas().send().getMaxPriorityFeePerGas();
            BigInteger ceiling = base.add(tip);
            Keeper capped = keeper(key, network(CHAIN.rpcUrl(), gwei(ceiling), gwei(tip)), SETTINGS);
            for (int pass = 0; pass < 10 && collects(id).isEmpty(); pass++) {
                capped.afterPass(CHAIN.blockNumber()).block();
            }
            KeeperTransaction sent = collects(id).get(0);
            assertThat(sent.fees().maxFeePerGas()).isEqualTo(ceiling);
            assertThat(sent.fees().priorityFeePerGas()).isLessThanOrEqualTo(tip);
            assertThat(sent.accepted()).as("the node took it").isTrue();
            double sentAtCeiling = counter("chain_watcher_keeper_fee_ceiling_total");
            assertThat(sentAtCeiling).isGreaterThan(held);

            // Dropped from the pool and stuck: a raise of 12.5 % would pass the ceiling, so the same transaction is
            // broadcast again instead.
            CONTRACT.anvil("anvil_dropTransaction", sent.txHash());
            CHAIN.increaseTime(SETTINGS.stuckAfter().toSeconds() + 1);
            capped.afterPass(CHAIN.blockNumber()).block();
            assertThat(collects(id))
                    .extracting(KeeperTransaction::txHash, KeeperTransaction::status)
                    .containsExactly(tuple(sent.txHash(), "pending"));
            assertThat(CHAIN.web3j()
                            .ethGetTransactionByHash(sent.txHash())
                            .send()
                            .getTransaction())
                    .as("broadcast again as it was")
                    .isPresent();
            assertThat(counter("chain_watcher_keeper_fee_ceiling_total")).isGreaterThan(sentAtCeiling);
        } finally {
            CONTRACT.anvil("evm_setAutomine", true);
            CHAIN.mine(1);
        }
        CHAIN.mine(3);
        run(keeper(key));
        assertThat(collects(id)).extracting(KeeperTransaction::status).containsExactly("confirmed");
    }

    @Test
    void aCollectNoNodeAcceptedIsBroadcastAgainAsItIsAndNeverRaised() {
        String id = subscribe(CONTRACT.subscriber(3), CONTRACT.plan(0), "keeper-outage");
        Path key = freshKey();
        run(keeper(key));
        Network dev = properties.networks().get(0);
        try (RpcProxy proxy = new RpcProxy(CHAIN.rpcUrl()).refuseBroadcasts(true)) {
            Keeper outage =
                    keeper(key, network(proxy.url(), dev.keeperMaxFeeGwei(), dev.keeperMaxPriorityFeeGwei()), SETTINGS);
            double refused = counter("chain_watcher_keeper_broadcasts_refused_total");
            CHAIN.increaseTime(INTERVAL);
            for (int pass = 0; pass < 10 && collects(id).isEmpty(); pass++) {
                outage.afterPass(CHAIN.blockNumber()).block();
            }
            KeeperTransaction sent = collects(id).get(0);
            assertThat(sent.accepted()).isFalse();
            assertThat(CHAIN.receipt(sent.txHash())).isEmpty();
            assertThat(counter("chain_watcher_keeper_broadcasts_refused_total")).isGreaterThan(refused);

            // Long past stuck-after: still the same transaction, same fees, sent again (and refused again).
            CHAIN.increaseTime(3 * SETTINGS.stuckAfter().toSeconds());
            outage.afterPass(CHAIN.blockNumber()).block();
            assertThat(collects(id))
                    .extracting(KeeperTransaction::txHash, KeeperTransaction::fees, KeeperTransaction::status)
                    .containsExactly(tuple(sent.txHash(), sent.fees(), "pending"));

            proxy.refuseBroadcasts(false);
            outage.afterPass(CHAIN.blockNumber()).block();
            assertThat(CHAIN.receipt(sent.txHash()))
                    .as("the node took it at last and mined it")
                    .isPresent();
            assertThat(collects(id).get(0).accepted()).isTrue();
        }
        assertThat(eventsOf(CHAIN.receipt(collects(id).get(0).txHash()).orElseThrow(), id))
                .containsExactly(CHARGED);
    }

    @Test
    void aCollectThatKeepsFailingIsLookedAtLessOftenThenGivenUpUntilAPeriodIsPaid() {
        String id = subscribe(CONTRACT.subscriber(3), CONTRACT.plan(0), "keeper-give-up");
        // Too little gas for a collect: every simulation fails (out of gas).
        ChainWatcherProperties.Keeper starved = new ChainWatcherProperties.Keeper(
                true, Duration.ofSeconds(60), Duration.ofSeconds(120), 10, 100, 30_000, 3);
        Path key = freshKey();
        Keeper keeper = keeper(key, starved);
        run(keeper);
        double givenUp = counter("chain_watcher_keeper_given_up_total");

        CHAIN.increaseTime(INTERVAL);
        List<Long> waits = new ArrayList<>();
        for (int failure = 1; failure <= 3; failure++) {
            run(keeper);
            KeptSubscription kept = subscriptions.find(CHAIN_ID, id).block();
            assertThat(kept.failures()).isEqualTo(failure);
            long wait = Duration.between(headTime(), kept.nextCheckAt()).toSeconds();
            waits.add(wait);
            if (failure < 3) {
                CHAIN.increaseTime(Math.max(wait, 0) + 1);
            }
        }
        assertThat(waits.get(0)).as("retry-interval").isBetween(50L, 60L);
        assertThat(waits.get(1)).as("doubled").isBetween(110L, 120L);
        assertThat(waits.get(2)).as("doubled again").isBetween(230L, 240L);
        KeptSubscription given = subscriptions.find(CHAIN_ID, id).block();
        assertThat(given.givenUpAt())
                .as("given up at the third failure in a row")
                .isNotNull();
        assertThat(counter("chain_watcher_keeper_given_up_total")).isGreaterThan(givenUp);

        CHAIN.increaseTime(waits.get(2) + 10); // past when it would have been looked at again
        run(keeper);
        assertThat(subscriptions.find(CHAIN_ID, id).block().failures())
                .as("not looked at any more")
                .isEqualTo(3);
        assertThat(collects(id)).isEmpty();

        // Someone collects it (with gas enough), still within the period's grace: its Charged log brings it back.
        TransactionReceipt paid = CHAIN.sendTransaction(
                CHAIN.accounts().get(9),
                DevChain.SUBSCRIPTION_CONTRACT,
                OnChainSubscription.collect(id),
                BigInteger.ZERO);
        assertThat(eventsOf(paid, id)).containsExactly(CHARGED);
        run(keeper(key));
        KeptSubscription back = subscriptions.find(CHAIN_ID, id).block();
        assertThat(back.failures()).isZero();
        assertThat(back.givenUpAt()).isNull();
        assertThat(back.nextCheckAt())
                .as("looked after again: its next period")
                .isEqualTo(state(id).nextDue());
    }

    @Test
    void collectsThatOnlyRecordMissesStopAfterGiveUpAfterInARow() {
        Account subscriber = CONTRACT.subscriber(1); // approves the first period only: every later one is missed
        String id = subscribe(subscriber, CONTRACT.plan(0), "keeper-misses");
        ChainWatcherProperties.Keeper threeTries = new ChainWatcherProperties.Keeper(
                true, Duration.ofSeconds(60), Duration.ofSeconds(120), 10, 100, 300_000, 3);
        Keeper keeper = keeper(freshKey(), threeTries);
        run(keeper);
        for (int period = 1; period <= 5; period++) {
            CHAIN.increaseTime(INTERVAL);
            run(keeper);
            CHAIN.increaseTime(GRACE + 1);
            run(keeper);
            CHAIN.mine(3);
            run(keeper);
        }
        List<KeeperTransaction> sent = collects(id);
        assertThat(sent)
                .as("three misses recorded by the keeper, then no more gas spent on it")
                .hasSize(3);
        for (KeeperTransaction tx : sent) {
            assertThat(eventsOf(CHAIN.receipt(tx.txHash()).orElseThrow(), id)).containsExactly(MISSED);
        }
        assertThat(state(id).missedInRow()).isEqualTo(3);
        assertThat(subscriptions.find(CHAIN_ID, id).block().givenUpAt()).isNotNull();
    }

    @Test
    void theProductionProfileRefusesAPublicDevelopmentKey() throws IOException {
        Network dev = properties.networks().get(0);
        Signer anvilSeven = Signer.read(DEV_KEEPER_KEY, CHAIN_ID);
        assertThatThrownBy(() -> Keepers.refuseDevelopmentKey(anvilSeven, dev, true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("0x14dc79964da2c08b23698b3d3cc7ca32193d9955")
                .hasMessageContaining("public development key")
                .hasMessageNotContaining(
                        Files.readString(DEV_KEEPER_KEY).strip().substring(2));
        Keepers.refuseDevelopmentKey(anvilSeven, dev, false); // the local stack's keeper
        Keepers.refuseDevelopmentKey(Signer.read(freshKey(), CHAIN_ID), dev, true);
    }

    @Test
    void theKeyBalanceIsExportedAndShownAsUnknownOnceNoPassRefreshesIt() {
        Keeper keeper = keeper(freshKey());
        keeper.afterPass(CHAIN.blockNumber()).block();

        String scrape = prometheus();
        assertThat(metric(scrape, "chain_watcher_keeper_balance_wei"))
                .as("read at the start of the pass")
                .isEqualTo(TEN_ETH.doubleValue());
        assertThat(metric(scrape, "chain_watcher_keeper_min_balance_wei")).isEqualTo(5e16);
        assertThat(metric(scrape, "chain_watcher_keeper_oldest_pending_seconds"))
                .isBetween(0.0, 60.0);
        assertThat(scrape).contains("chain_watcher_keeper_balance_wei{chain_id=\"31337\",network=\"Local dev chain\"}");

        clock.set(clock.instant().plus(properties.leaseDuration()).plusSeconds(1));
        assertThat(metric(prometheus(), "chain_watcher_keeper_balance_wei"))
                .as("another instance holds the lease now")
                .isNaN();
    }

    /**
     * Subscribes, has subscriptions-service's stand-in say a link of a merchant of its own holds it, and answers the
     * subscription id (0x-hex, lower-case, as the keeper stores it).
     */
    private static String subscribe(Account subscriber, SubscriptionContract.Plan plan, String ref) {
        return bound(idOf(CONTRACT.subscribe(subscriber, plan, ref)), UUID.randomUUID());
    }

    /** Has subscriptions-service's stand-in answer that a link of {@code merchant} holds the subscription. */
    private static String bound(String id, UUID merchant) {
        STOPPED.remove(id);
        KEPT.put(id, merchant);
        return id;
    }

    /**
     * Answers {@code POST /internal/keeper/scope} as subscriptions-service does, from {@link #KEPT} and
     * {@link #STOPPED}; 503 while {@link #scopeDown}. Other calls: 200.
     */
    @BeforeEach
    void standInForSubscriptionsService() {
        scopeDown = false;
        SUBSCRIPTIONS.otherwise(call -> {
            if (!call.path().equals(SubscriptionsReporter.SCOPE_PATH)) {
                return Reply.status(200);
            }
            if (scopeDown) {
                return Reply.status(503);
            }
            List<Map<String, Object>> answers = new ArrayList<>();
            for (JsonNode id : json.readTree(call.bodyText()).get("subscription_ids")) {
                UUID merchant = KEPT.get(id.asString());
                UUID stopped = STOPPED.get(id.asString());
                Map<String, Object> answer = new LinkedHashMap<>();
                answer.put("subscription_id", id.asString());
                answer.put("collect", merchant != null);
                answer.put("merchant_id", merchant != null ? merchant : stopped);
                answer.put("reason", merchant != null ? null : stopped != null ? "stopped" : "not_bound");
                answers.add(answer);
            }
            return new Reply(
                    200,
                    Map.of("Content-Type", "application/json"),
                    Duration.ZERO,
                    json.writeValueAsBytes(Map.of("subscriptions", answers)));
        });
    }

    /** The scope questions subscriptions-service's stand-in received so far. */
    private static long scopeQuestions() {
        return SUBSCRIPTIONS.received().stream()
                .filter(call -> call.path().equals(SubscriptionsReporter.SCOPE_PATH))
                .count();
    }

    private static String idOf(TransactionReceipt subscribed) {
        return Numeric.toHexString(SubscriptionContract.subscriptionId(subscribed));
    }

    /** A key file holding a fresh key that holds 10 ETH. */
    private Path freshKey() {
        try {
            ECKeyPair key = Keys.createEcKeyPair();
            CONTRACT.anvil("anvil_setBalance", "0x" + Keys.getAddress(key), Numeric.encodeQuantity(TEN_ETH));
            Path file = Files.createTempFile(keys, "keeper", ".key");
            Files.writeString(file, Numeric.toHexStringWithPrefixZeroPadded(key.getPrivateKey(), 64) + "\n");
            return file;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The local stack's keeper key: anvil's dev account 7, a key the whole world knows. */
    private static final Path DEV_KEEPER_KEY = Path.of("..", "dev-chain", "dev-keeper.key");

    /** The dev chain's network as configured, reached at {@code rpcUrl}, with this fee ceiling (gwei). */
    private Network network(String rpcUrl, BigDecimal maxFeeGwei, BigDecimal maxPriorityFeeGwei) {
        Network dev = properties.networks().get(0);
        return TestNetworks.of(dev)
                .withRpcUrl(rpcUrl)
                .withFeeCeiling(maxFeeGwei, maxPriorityFeeGwei)
                .applyTo(dev);
    }

    private static BigDecimal gwei(BigInteger wei) {
        return new BigDecimal(wei).movePointLeft(9);
    }

    private Keeper keeper(Path keyFile, Network network, ChainWatcherProperties.Keeper settings) {
        ChainClient client = new ChainClient(network);
        clients.add(client);
        return keepers.keeper(network, client, Signer.read(keyFile, CHAIN_ID), settings);
    }

    /** A keeper of the dev chain signing with the key in {@code keyFile}, as a chain's pass runs it. */
    private Keeper keeper(Path keyFile) {
        return keeper(keyFile, SETTINGS);
    }

    private Keeper keeper(Path keyFile, ChainWatcherProperties.Keeper settings) {
        Network network = properties.networks().get(0);
        ChainClient client = new ChainClient(network);
        clients.add(client);
        return keepers.keeper(network, client, Signer.read(keyFile, CHAIN_ID), settings);
    }

    /**
     * Scans (the keeper learns subscriptions from the stored logs), then runs keeper passes until one sends nothing
     * new: other tests' subscriptions may be due too, and a pass sends at most ten transactions.
     */
    private void run(Keeper keeper) {
        scan();
        for (int pass = 0; pass < 10; pass++) {
            long before = sentBy(keeper);
            keeper.afterPass(CHAIN.blockNumber()).block();
            // The first pass may only learn which new subscriptions are in scope; they are read in the next.
            if (pass > 0 && sentBy(keeper) == before) {
                return;
            }
        }
        throw new AssertionError("the keeper still sends after 10 passes");
    }

    private long sentBy(Keeper keeper) {
        return database.sql("SELECT count(*) AS n FROM keeper_transaction WHERE keeper_address = :keeper")
                .bind("keeper", keeper.address())
                .map(row -> row.get("n", Long.class))
                .one()
                .block();
    }

    private List<KeeperTransaction> collects(String id) {
        return transactions.ofSubscription(CHAIN_ID, id).collectList().block();
    }

    private static OnChainSubscription state(String id) {
        return OnChainSubscription.decode(CHAIN.callRaw(DevChain.SUBSCRIPTION_CONTRACT, OnChainSubscription.read(id)));
    }

    /** The contract's events in a receipt that concern the subscription, as their topic 0. */
    private static List<String> eventsOf(TransactionReceipt receipt, String id) {
        return SubscriptionContract.contractLogs(receipt).stream()
                .filter(log ->
                        log.getTopics().size() > 1 && log.getTopics().get(1).equals(id))
                .map(log -> log.getTopics().get(0))
                .toList();
    }

    private static Log logOf(TransactionReceipt receipt, String id) {
        return SubscriptionContract.contractLogs(receipt).stream()
                .filter(log ->
                        log.getTopics().size() > 1 && log.getTopics().get(1).equals(id))
                .findFirst()
                .orElseThrow();
    }

    private static Instant headTime() {
        try {
            return Instant.ofEpochSecond(CHAIN.web3j()
                    .ethGetBlockByNumber(DefaultBlockParameterName.LATEST, false)
                    .send()
                    .getBlock()
                    .getTimestamp()
                    .longValueExact());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Instant blockTime(TransactionReceipt receipt) {
        try {
            return Instant.ofEpochSecond(CHAIN.web3j()
                    .ethGetBlockByHash(receipt.getBlockHash(), false)
                    .send()
                    .getBlock()
                    .getTimestamp()
                    .longValueExact());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long nodeNonce(String address) throws IOException {
        return CHAIN.web3j()
                .ethGetTransactionCount(address, DefaultBlockParameterName.PENDING)
                .send()
                .getTransactionCount()
                .longValueExact();
    }

    /** A counter's value in the scrape, 0 before it was first counted. */
    private double counter(String name) {
        String scrape = prometheus();
        return scrape.lines().anyMatch(line -> line.startsWith(name + "{")) ? metric(scrape, name) : 0;
    }

    /** The fee-on-transfer test token, deployed once for this class. */
    private static synchronized String feeToken() {
        if (feeToken == null) {
            feeToken = CHAIN.deploy(CHAIN.accounts().get(8), "FeeOnTransferToken", "");
        }
        return feeToken;
    }
}
