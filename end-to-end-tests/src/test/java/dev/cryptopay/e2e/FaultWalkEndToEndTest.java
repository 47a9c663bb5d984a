package dev.cryptopay.e2e;

import static dev.cryptopay.e2e.SuiteStack.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.deploy.LocalStack;
import dev.cryptopay.deploy.StackOptions;
import dev.cryptopay.testsupport.chain.SubscriptionContract;
import dev.cryptopay.testsupport.webhook.WebhookReceiver;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.response.EthBlock;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.Transaction;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;

/**
 * The fault walk (docs/reliability.md): the whole suite with two instances of every service on one PostgreSQL, one
 * Kafka broker and the dev chain, under a steady load of payment links paid on chain and subscriptions billed period by
 * period, while one instance of each service is killed in turn (kill -9, restarted by the launcher), then the
 * chain-watcher holding the chain's lease while its keeper's collects wait in the mempool, then Kafka and PostgreSQL are
 * restarted. Afterwards: every paid link completed exactly once and announced under one event id, every due period
 * charged once on chain by at most one keeper transaction and recorded once, and how long each fault took to heal,
 * written to {@code target/fault-walk.md}.
 *
 * <p>CI runs one round; {@code bench/run-faults} runs more ({@code -Dfaults.rounds}).
 */
class FaultWalkEndToEndTest {

    private static final int ROUNDS = Integer.getInteger("faults.rounds", 1);
    private static final int SUBSCRIPTIONS = 2;
    private static final String COLLECT_SELECTOR = "0x"
            + Numeric.toHexStringNoPrefix(org.web3j.crypto.Hash.sha3(
                            "collect(bytes32)".getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
                    .substring(0, 8);

    @Test
    void everyServiceTwiceSurvivesCrashesAndRestartsWithNothingLostOrPaidTwice() throws Exception {
        long began = System.nanoTime();
        try (LocalStack stack = LocalStack.start(options());
                FaultWalk walk = new FaultWalk(stack)) {
            // Stopped from outside (Ctrl-C of bench/run-faults, a killed test JVM): its ten services stop with it.
            Thread stopStack = new Thread(stack::close, "fault-walk-stack-shutdown");
            Runtime.getRuntime().addShutdownHook(stopStack);
            double startSeconds = (System.nanoTime() - began) / 1e9;
            walk.prepare(SUBSCRIPTIONS);
            walk.startLoad();
            for (int round = 0; round < ROUNDS; round++) {
                // Each service's first instance in one round, its second in the next.
                String suffix = round % 2 == 0 ? "" : "-2";
                for (String service :
                        List.of("payment-links-service", "webhook-service", "subscriptions-service", "gateway")) {
                    walk.crash(service + suffix);
                }
                walk.crashLeaseHolderDuringCollects();
                walk.restartKafka(Duration.ofSeconds(5));
                walk.restartPostgres();
            }
            walk.stopLoad();

            assertEveryPaidLinkCompletedOnceAndAnnouncedUnderOneId(walk);
            assertEveryDuePeriodChargedOnceByOneKeeperTransactionAndRecordedOnce(walk);
            report(walk, startSeconds, (System.nanoTime() - began) / 1e9);
        }
    }

    private static StackOptions options() {
        return StackOptions.forTests()
                .devChain(true)
                .instances(2)
                .embeddedPostgres()
                // A lease lapses 5 s after its holder's last pass (30 s by default): the take-over the walk times.
                .serviceEnv("chain-watcher", "CHAINWATCHER_LEASEDURATION", "5s")
                // Consumer lag measured every 2 s (15 s by default), so the walk sees it back at zero sooner.
                .serviceEnv("chain-watcher", "CHAINWATCHER_CONSUMERLAGINTERVAL", "2s")
                .serviceEnv("webhook-service", "WEBHOOKS_METRICSINTERVAL", "2s")
                .serviceEnv("gateway", "GATEWAY_RATELIMIT_ENABLED", "false");
    }

    private static void assertEveryPaidLinkCompletedOnceAndAnnouncedUnderOneId(FaultWalk walk) {
        assertThat(walk.paid).as("links paid during the walk").hasSizeGreaterThan(10);
        SuiteStack.await(
                "every paid link's payment.completed",
                FaultWalk.HEAL_LIMIT,
                () -> walk.paid.stream().allMatch(link -> walk.delivered(link.id(), "payment.completed")));
        for (FaultWalk.PaidLink link : walk.paid) {
            JsonNode read = walk.read(walk.links, "/payment_links/" + link.id()).get("data");
            assertThat(read.get("payment_status").asString()).as(link.name()).isEqualTo("completed");
            // Its one transfer recorded once, whichever instances reported and recorded it, however often.
            assertThat(read.at("/summary/total_transactions").asInt())
                    .as(link.name() + ": " + read)
                    .isEqualTo(1);
            assertThat(read.at("/summary/completed_transactions").asInt())
                    .as(link.name() + ": " + read)
                    .isEqualTo(1);
        }
        // A create sent again after a fault (same Idempotency-Key) made no second link.
        List<String> names = new ArrayList<>();
        for (int page = 1; ; page++) {
            JsonNode listed = walk.read(walk.links, "/payment_links?search=fault-walk-&limit=100&page=" + page)
                    .get("data")
                    .get("data");
            listed.values().forEach(link -> names.add(link.get("payment_name").asString()));
            if (listed.size() < 100) {
                break;
            }
        }
        List<String> walkLinks =
                names.stream().filter(name -> name.startsWith("fault-walk-")).toList();
        assertThat(walkLinks).doesNotHaveDuplicates();
        assertThat(walkLinks)
                .containsAll(walk.paid.stream().map(FaultWalk.PaidLink::name).toList());

        // At least once, and under one event id: deliveries again after a fault repeat the id.
        Map<String, Set<String>> idsByLinkAndType = new TreeMap<>();
        for (WebhookReceiver.Received delivery : walk.receiver.received()) {
            JsonNode event = JSON.readTree(delivery.body());
            String type = event.get("type").asString();
            if (type.startsWith("payment.")) {
                idsByLinkAndType
                        .computeIfAbsent(event.get("data").get("id").asString() + " " + type, key -> new HashSet<>())
                        .add(event.get("id").asString());
            }
        }
        for (FaultWalk.PaidLink link : walk.paid) {
            for (String type : List.of("payment.created", "payment.completed")) {
                assertThat(idsByLinkAndType.get(link.id() + " " + type))
                        .as(type + " of " + link.name())
                        .hasSize(1);
            }
        }
    }

    private static void assertEveryDuePeriodChargedOnceByOneKeeperTransactionAndRecordedOnce(FaultWalk walk)
            throws IOException {
        walk.awaitCollected("every due period recorded");
        String keeper = walk.chain.accounts().get(7).toLowerCase(Locale.ROOT);
        List<Log> charged = walk
                .chain
                .web3j()
                .ethGetLogs(new EthFilter(
                                DefaultBlockParameterName.EARLIEST,
                                DefaultBlockParameterName.LATEST,
                                SubscriptionContract.ADDRESS)
                        .addSingleTopic(SubscriptionContract.CHARGED))
                .send()
                .getLogs()
                .stream()
                .map(result -> (Log) ((EthLog.LogObject) result))
                .toList();
        Map<String, List<String>> keeperCollects = keeperCollects(walk, keeper);
        Map<String, Set<String>> successTxs = new TreeMap<>();
        Map<String, Set<String>> successIds = new TreeMap<>();
        for (WebhookReceiver.Received delivery : walk.receiver.received()) {
            JsonNode event = JSON.readTree(delivery.body());
            if (event.get("type").asString().equals("subscription.payment.success")) {
                JsonNode data = event.get("data");
                String link = data.get("subscription_link_id").asString();
                successTxs
                        .computeIfAbsent(link, key -> new HashSet<>())
                        .add(data.get("tx_hash").asString());
                successIds
                        .computeIfAbsent(link + " " + data.get("tx_hash").asString(), key -> new HashSet<>())
                        .add(event.get("id").asString());
            }
        }
        for (FaultWalk.Enrolled subscription : walk.subscriptions) {
            List<Log> logs = charged.stream()
                    .filter(log -> log.getTopics().get(1).equalsIgnoreCase(subscription.contractId()))
                    .toList();
            Set<BigInteger> periods = logs.stream()
                    .map(log -> Numeric.toBigInt(log.getData().substring(2, 66)))
                    .collect(Collectors.toSet());
            assertThat(logs).as("Charged logs of " + subscription.linkId()).hasSize(walk.duePeriods);
            assertThat(periods).as("each period charged once").hasSize(walk.duePeriods);
            assertThat(walk.paidPeriods(subscription))
                    .as("paid_periods recorded")
                    .isEqualTo(walk.duePeriods);
            // Every period after the first (paid by subscribing) by exactly one keeper transaction, which succeeded.
            List<String> collects = keeperCollects.getOrDefault(subscription.contractId(), List.of());
            assertThat(collects)
                    .as("keeper transactions collecting " + subscription.contractId())
                    .hasSize(walk.duePeriods - 1)
                    .allMatch(hash -> logs.stream()
                            .anyMatch(log -> log.getTransactionHash().equalsIgnoreCase(hash)));
            Set<String> chargedTxs = logs.stream()
                    .map(log -> log.getTransactionHash().toLowerCase(Locale.ROOT))
                    .collect(Collectors.toSet());
            assertThat(successTxs.getOrDefault(subscription.linkId(), Set.of()).stream()
                            .map(hash -> hash.toLowerCase(Locale.ROOT))
                            .collect(Collectors.toSet()))
                    .as("subscription.payment.success for each charged period")
                    .isEqualTo(chargedTxs);
            for (String tx : successTxs.get(subscription.linkId())) {
                assertThat(successIds.get(subscription.linkId() + " " + tx))
                        .as("one event id for the period of " + tx)
                        .hasSize(1);
            }
        }
    }

    /** The keeper's transactions to the contract calling collect, by subscription id: their hashes. */
    private static Map<String, List<String>> keeperCollects(FaultWalk walk, String keeper) throws IOException {
        Map<String, List<String>> collects = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        long head = walk.chain.blockNumber();
        for (long number = 0; number <= head; number++) {
            EthBlock.Block block = walk.chain
                    .web3j()
                    .ethGetBlockByNumber(DefaultBlockParameter.valueOf(BigInteger.valueOf(number)), true)
                    .send()
                    .getBlock();
            for (EthBlock.TransactionResult<?> result : block.getTransactions()) {
                Transaction transaction = (Transaction) result.get();
                if (keeper.equalsIgnoreCase(transaction.getFrom())
                        && SubscriptionContract.ADDRESS.equalsIgnoreCase(transaction.getTo())
                        && transaction.getInput().startsWith(COLLECT_SELECTOR)) {
                    TransactionReceipt receipt =
                            walk.chain.receipt(transaction.getHash()).orElseThrow();
                    assertThat(receipt.isStatusOK())
                            .as("keeper transaction " + transaction.getHash() + " succeeded")
                            .isTrue();
                    collects.computeIfAbsent("0x" + transaction.getInput().substring(10, 74), key -> new ArrayList<>())
                            .add(transaction.getHash());
                }
            }
        }
        return collects;
    }

    /** The heal times, printed and written to target/fault-walk.md (docs/reliability.md shows a run's). */
    private static void report(FaultWalk walk, double startSeconds, double totalSeconds) throws IOException {
        StringBuilder table = new StringBuilder();
        table.append(String.format(
                Locale.ROOT,
                "Fault walk: %d round(s), two instances of each service, started in %.0f s, %.0f s in all; %d links"
                        + " paid, %d subscriptions x %d periods; %d requests sent again.%n%n",
                ROUNDS,
                startSeconds,
                totalSeconds,
                walk.paid.size(),
                walk.subscriptions.size(),
                walk.duePeriods,
                walk.retried.get()));
        table.append("| fault | healed (seconds after the fault) | requests sent again |\n|---|---|---|\n");
        for (FaultWalk.Healed healed : walk.healed) {
            table.append("| ")
                    .append(healed.fault())
                    .append(" | ")
                    .append(healed.seconds().entrySet().stream()
                            .map(part -> String.format(Locale.ROOT, "%s %.1f", part.getKey(), part.getValue()))
                            .collect(Collectors.joining("; ")))
                    .append(" | ")
                    .append(healed.retriedRequests())
                    .append(" |\n");
        }
        System.out.println(table);
        Path target = Path.of("target");
        Files.createDirectories(target);
        Files.writeString(target.resolve("fault-walk.md"), table);
        assertThat(walk.healed).hasSize(ROUNDS * 7);
    }
}
