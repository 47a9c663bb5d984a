package dev.cryptopay.chainwatcher.scan;

import static dev.cryptopay.testsupport.chain.SubscriptionContract.CANCELLED;
import static dev.cryptopay.testsupport.chain.SubscriptionContract.CHARGED;
import static dev.cryptopay.testsupport.chain.SubscriptionContract.GRACE;
import static dev.cryptopay.testsupport.chain.SubscriptionContract.INTERVAL;
import static dev.cryptopay.testsupport.chain.SubscriptionContract.MISSED;
import static dev.cryptopay.testsupport.chain.SubscriptionContract.PLAN_REVOKED;
import static dev.cryptopay.testsupport.chain.SubscriptionContract.SUBSCRIBED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.cryptopay.chainwatcher.ChainWatcherTestBase;
import dev.cryptopay.chainwatcher.report.SubscriptionsReporter;
import dev.cryptopay.testsupport.chain.SubscriptionContract;
import dev.cryptopay.testsupport.chain.SubscriptionContract.Account;
import dev.cryptopay.testsupport.chain.SubscriptionContract.Plan;
import dev.cryptopay.testsupport.webhook.WebhookReceiver.Received;
import dev.cryptopay.testsupport.webhook.WebhookReceiver.Reply;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;

/**
 * Following the dev chain's subscription contract on a real anvil chain: its logs are reported to subscriptions-service
 * once confirmed, in order, never twice, and reported removed when a reorganisation deeper than the confirmations
 * took a reported one away; a reorganised log that was never confirmed is never reported. Each test subscribes fresh
 * accounts to a fresh plan and looks only at the reports whose topics carry them.
 */
class ContractLogsTest extends ChainWatcherTestBase {

    private static final SubscriptionContract CONTRACT = new SubscriptionContract(CHAIN);
    private static final Map<String, String> EVENTS = Map.of(
            SUBSCRIBED, "Subscribed",
            CHARGED, "Charged",
            MISSED, "Missed",
            CANCELLED, "Cancelled",
            PLAN_REVOKED, "PlanRevoked");

    @Autowired
    private ContractLogRepository contractLogs;

    @Test
    void aSubscriptionIsReportedOnlyOnceConfirmedWithItsTopicsDataAndBlockTime() throws IOException {
        Plan plan = CONTRACT.plan(0);
        Account subscriber = CONTRACT.subscriber(1);
        scan();

        TransactionReceipt subscribed = CONTRACT.subscribe(subscriber, plan, "confirmed");
        List<Log> logs = SubscriptionContract.contractLogs(subscribed);
        assertThat(logs).extracting(log -> log.getTopics().get(0)).containsExactly(SUBSCRIBED, CHARGED);
        scan();
        CHAIN.mine(1);
        scan();
        assertThat(reportsOf(subscriber)).as("two confirmations of three").isEmpty();
        assertThat(contractLogs
                        .ofTransaction(31337, subscribed.getTransactionHash())
                        .collectList()
                        .block())
                .extracting(ContractLog::status, ContractLog::confirmations)
                .containsOnly(tuple("pending", 2));

        CHAIN.mine(1);
        scan();

        List<JsonNode> reports = reportsOf(subscriber);
        assertThat(reports).hasSize(2);
        Instant blockTime = Instant.ofEpochSecond(CHAIN.web3j()
                .ethGetBlockByHash(subscribed.getBlockHash(), false)
                .send()
                .getBlock()
                .getTimestamp()
                .longValueExact());
        for (int i = 0; i < 2; i++) {
            JsonNode report = reports.get(i);
            Log log = logs.get(i);
            assertThat(report.propertyNames())
                    .as("the members subscriptions-service reads, in this order")
                    .containsExactly(
                            "chain_id",
                            "contract",
                            "tx_hash",
                            "log_index",
                            "block_number",
                            "block_hash",
                            "block_time",
                            "topics",
                            "data",
                            "confirmations",
                            "removed");
            assertThat(report.get("chain_id").asLong()).isEqualTo(31337);
            assertThat(report.get("contract").asString()).isEqualTo(SubscriptionContract.ADDRESS);
            assertThat(report.get("tx_hash").asString()).isEqualTo(subscribed.getTransactionHash());
            assertThat(report.get("log_index").asLong())
                    .isEqualTo(log.getLogIndex().longValueExact());
            assertThat(report.get("block_number").asLong())
                    .isEqualTo(subscribed.getBlockNumber().longValueExact());
            assertThat(report.get("block_hash").asString()).isEqualTo(subscribed.getBlockHash());
            assertThat(report.get("block_time").asString()).isEqualTo(blockTime.toString());
            assertThat(report.get("topics").valueStream().map(JsonNode::asString))
                    .containsExactlyElementsOf(log.getTopics());
            assertThat(report.get("data").asString()).isEqualTo(log.getData());
            assertThat(report.get("confirmations").asInt()).isEqualTo(3);
            assertThat(report.get("removed").asBoolean()).isFalse();
        }
        assertThat(reports.get(0).get("topics").get(3).asString()).isEqualTo(subscriber.topic());

        scan();
        CHAIN.mine(2);
        scan();
        assertThat(reportsOf(subscriber))
                .as("a later pass reports nothing again")
                .hasSize(2);
        assertThat(metric(prometheus(), "chain_watcher_contract_logs_total")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void chargesMissesCancellationAndRevocationAreReportedInChainOrder() {
        Plan plan = CONTRACT.plan(0);
        Account subscriber = CONTRACT.subscriber(2);
        String keeper = CHAIN.accounts().get(9);

        TransactionReceipt subscribed = CONTRACT.subscribe(subscriber, plan, "order");
        byte[] id = SubscriptionContract.subscriptionId(subscribed);
        CHAIN.increaseTime(INTERVAL);
        TransactionReceipt charged = CONTRACT.collect(keeper, id);
        CHAIN.increaseTime(INTERVAL + GRACE + 1);
        TransactionReceipt missed = CONTRACT.collect(keeper, id);
        TransactionReceipt cancelled = CONTRACT.cancel(subscriber, id);
        TransactionReceipt revoked = CONTRACT.revoke(plan);
        CHAIN.mine(2);
        scan();

        List<String> expected = new ArrayList<>();
        for (TransactionReceipt receipt : List.of(subscribed, charged, missed, cancelled, revoked)) {
            SubscriptionContract.contractLogs(receipt)
                    .forEach(log ->
                            expected.add(receipt.getTransactionHash() + "#" + log.getLogIndex() + " " + eventOf(log)));
        }
        assertThat(expected)
                .extracting(line -> line.substring(line.indexOf(' ') + 1))
                .containsExactly("Subscribed", "Charged", "Charged", "Missed", "Cancelled", "PlanRevoked");
        List<JsonNode> reports = reportsOf(subscriber, plan.merchant());
        assertThat(reports)
                .extracting(report -> report.get("tx_hash").asString() + "#"
                        + report.get("log_index").asLong() + " "
                        + eventOf(report.get("topics").get(0).asString()))
                .containsExactlyElementsOf(expected);
        assertThat(reports)
                .allSatisfy(
                        report -> assertThat(report.get("removed").asBoolean()).isFalse());
        assertThat(reports.get(reports.size() - 1).get("topics").get(2).asString())
                .as("PlanRevoked's planId")
                .isEqualTo(Numeric.toHexString(CONTRACT.planId(plan)));
    }

    @Test
    void anUnconfirmedSubscriptionReplacedByAReorganisationIsReportedAsItsReplacementOnly() {
        Plan plan = CONTRACT.plan(0);
        Account subscriber = CONTRACT.subscriber(1);
        scan();
        TransactionReceipt gone = CONTRACT.subscribe(subscriber, plan, "gone");
        scan(); // stored, pending

        CHAIN.reorg(1); // the subscription's block is replaced by an empty one
        TransactionReceipt replacement = CONTRACT.subscribe(subscriber, plan, "replacement");
        CHAIN.mine(2);
        scan();

        assertThat(replacement.getTransactionHash()).isNotEqualTo(gone.getTransactionHash());
        assertThat(reportsOf(subscriber))
                .extracting(report -> report.get("tx_hash").asString() + " "
                        + report.get("removed").asBoolean())
                .containsExactly(
                        replacement.getTransactionHash() + " false", replacement.getTransactionHash() + " false");
        assertThat(contractLogs
                        .ofTransaction(31337, gone.getTransactionHash())
                        .collectList()
                        .block())
                .as("found before the reorganisation, not after it: failed, and never reported")
                .hasSize(2)
                .allSatisfy(log -> {
                    assertThat(log.status()).isEqualTo("failed");
                    assertThat(log.reportedStatus()).isNull();
                });

        CHAIN.mine(3);
        scan();
        assertThat(reportsOf(subscriber)).as("never twice").hasSize(2);
    }

    @Test
    void anUnconfirmedChargeTakenAwayByAReorganisationIsNeverReported() {
        Plan plan = CONTRACT.plan(0);
        Account subscriber = CONTRACT.subscriber(2);
        TransactionReceipt subscribed = CONTRACT.subscribe(subscriber, plan, "charge-gone");
        CHAIN.mine(2);
        scan();
        assertThat(reportsOf(subscriber)).hasSize(2);

        CHAIN.increaseTime(INTERVAL);
        TransactionReceipt charged =
                CONTRACT.collect(CHAIN.accounts().get(9), SubscriptionContract.subscriptionId(subscribed));
        assertThat(SubscriptionContract.contractLogs(charged))
                .extracting(log -> eventOf(log))
                .containsExactly("Charged");
        scan(); // stored, pending
        CHAIN.reorg(1);
        CHAIN.mine(3);
        scan();

        assertThat(CHAIN.receipt(charged.getTransactionHash())).isEmpty();
        assertThat(reportsOf(subscriber))
                .extracting(report -> report.get("tx_hash").asString())
                .containsOnly(subscribed.getTransactionHash())
                .hasSize(2);
        assertThat(contractLogs
                        .ofTransaction(31337, charged.getTransactionHash())
                        .collectList()
                        .block())
                .extracting(ContractLog::status)
                .containsExactly("failed");
    }

    @Test
    void aReportedLogTakenAwayByAReorganisationDeeperThanTheConfirmationsIsReportedRemoved() {
        Plan plan = CONTRACT.plan(0);
        Account subscriber = CONTRACT.subscriber(1);
        scan();
        TransactionReceipt subscribed = CONTRACT.subscribe(subscriber, plan, "removed");
        CHAIN.mine(3);
        scan();
        assertThat(reportsOf(subscriber)).hasSize(2);

        // Four blocks from the subscription's on: deeper than its three confirmations.
        CHAIN.reorg((int) (CHAIN.blockNumber() - subscribed.getBlockNumber().longValueExact() + 1));
        CHAIN.mine(1);
        scan();

        assertThat(CHAIN.receipt(subscribed.getTransactionHash())).isEmpty();
        List<JsonNode> reports = reportsOf(subscriber);
        assertThat(reports)
                .extracting(report -> report.get("log_index").asLong() + " "
                        + report.get("removed").asBoolean() + " "
                        + report.get("confirmations").asInt())
                .containsExactly(
                        reports.get(0).get("log_index").asLong() + " false 3",
                        reports.get(1).get("log_index").asLong() + " false 3",
                        reports.get(0).get("log_index").asLong() + " true 0",
                        reports.get(1).get("log_index").asLong() + " true 0");
        assertThat(reports).allSatisfy(report -> {
            assertThat(report.get("tx_hash").asString()).isEqualTo(subscribed.getTransactionHash());
            assertThat(report.get("block_hash").asString()).isEqualTo(subscribed.getBlockHash());
        });

        scan();
        CHAIN.mine(1);
        scan();
        assertThat(reportsOf(subscriber)).as("the removal once").hasSize(4);
    }

    @Test
    void aReportAnswered5xxIsSentAgainNextPassAndOneAnswered4xxAMinuteLater() {
        CHAIN.mine(3);
        scan(); // whatever earlier tests left is reported: the scripted answers below go to this test's logs

        Account retried = CONTRACT.subscriber(1);
        CONTRACT.subscribe(retried, CONTRACT.plan(0), "5xx");
        CHAIN.mine(2);
        SUBSCRIPTIONS.script(Reply.status(503));
        scanners.scanOnce().block();
        assertThat(eventsReportedFor(retried))
                .as("the pass stops at the report not acknowledged: nothing later goes first")
                .containsExactly("Subscribed");
        scanners.scanOnce().block();
        scan();
        assertThat(eventsReportedFor(retried)).containsExactly("Subscribed", "Subscribed", "Charged");

        Account refused = CONTRACT.subscriber(1);
        CONTRACT.subscribe(refused, CONTRACT.plan(0), "4xx");
        CHAIN.mine(2);
        SUBSCRIPTIONS.script(Reply.status(422));
        scan();
        CHAIN.mine(1);
        scan();
        assertThat(eventsReportedFor(refused))
                .as("a 4xx is a refusal, not an acknowledgement: the next log follows, the refused one waits")
                .containsExactly("Subscribed", "Charged");

        clock.set(clock.instant().plusSeconds(61));
        scan();
        scan();
        assertThat(eventsReportedFor(refused))
                .as("sent again a minute later, acknowledged this time, then never again")
                .containsExactly("Subscribed", "Charged", "Subscribed");
        assertThat(eventsReportedFor(retried)).hasSize(3);
        assertThat(prometheus())
                .contains("chain_watcher_report_refusals_total{receiver=\"subscriptions-service\",status=\"422\"}");
    }

    /** The log reports subscriptions-service received whose topics carry one of these accounts, in arrival order. */
    private List<JsonNode> reportsOf(Account... accounts) {
        Set<String> topics = Arrays.stream(accounts).map(Account::topic).collect(Collectors.toSet());
        return SUBSCRIPTIONS.received().stream()
                .filter(call -> call.path().equals(SubscriptionsReporter.PATH))
                .map(Received::bodyText)
                .map(json::readTree)
                .filter(report -> report.get("topics")
                        .valueStream()
                        .map(JsonNode::asString)
                        .anyMatch(topics::contains))
                .toList();
    }

    private List<String> eventsReportedFor(Account subscriber) {
        return reportsOf(subscriber).stream()
                .map(report -> eventOf(report.get("topics").get(0).asString()))
                .toList();
    }

    private static String eventOf(Log log) {
        return eventOf(log.getTopics().get(0));
    }

    private static String eventOf(String topic0) {
        return EVENTS.getOrDefault(topic0, topic0);
    }
}
