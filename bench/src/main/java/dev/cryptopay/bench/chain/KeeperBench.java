package dev.cryptopay.bench.chain;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cryptopay.testsupport.LoopbackHttpServer;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.RpcProxy;
import dev.cryptopay.testsupport.chain.SubscriptionContract;
import dev.cryptopay.testsupport.chain.SubscriptionContract.Account;
import dev.cryptopay.testsupport.chain.SubscriptionContract.Plan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.web3j.utils.Numeric;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The keeper at scale: how many passes, RPC calls, transactions and how much time chain-watcher's keeper needs to
 * collect one period of many subscriptions that fall due together, with {@code max-sends-per-pass} 10 (the default)
 * and 100 side by side in one run. For each setting: a fresh dev chain (test-support's {@link DevChain}, behind a
 * counting {@link RpcProxy}), a fresh watcher (its executable jar, its own database, a fresh gas-only keeper key) and
 * a stand-in for subscriptions-service that answers every scope question "collect" (all bound to one merchant) and
 * takes the contract logs. One subscriber subscribes {@code --subscriptions} times (10,000) to one 30-day plan with
 * different refs (each pays its first period at once); once the keeper has taken them all in, the chain's time moves
 * one interval, anvil mines a block a second from then on (as a chain does; until then one block per transaction)
 * and the clock starts: it stops when the chain shows a {@code Charged} for the second period of every
 * one of them (read from the chain's logs, not from the watcher), or at {@code --limit} (then the rate so far gives the
 * projection, marked as such). The run fails if any subscription is charged twice for a period or a keeper
 * transaction reverts: the benchmark checks the work it claims.
 *
 * <pre>
 * bench/run-keeper [--subscriptions 10000] [--sends 10,100] [--limit 30m]
 * </pre>
 *
 * A pass is counted by the keeper's one {@code eth_getBalance} (its key's balance) per pass, which nothing else in the
 * watcher calls. Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust; {@code --postgres host:port}), Node.js
 * (the dev chain) and chain-watcher's jar ({@code bench/run-keeper} builds it).
 */
public final class KeeperBench {

    private static final String DATABASE = "chain_watcher_keeper_bench";
    private static final Duration SETUP_TIMEOUT = Duration.ofMinutes(10);
    private static final BigInteger SUBSCRIBE_GAS = BigInteger.valueOf(400_000);
    private static final int BATCH = 500;
    private static final BigInteger GWEI = BigInteger.TEN.pow(9);
    private static final UUID MERCHANT = UUID.fromString("00000000-0000-4000-8000-00000000be7c");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** What one setting took. */
    record Result(
            int sendsPerPass,
            int subscriptions,
            long collected,
            long passes,
            long sent,
            Map<String, Long> calls,
            double nodeSeconds,
            double watcherCpu,
            double wall,
            boolean finished) {

        long totalCalls() {
            return calls.values().stream().mapToLong(Long::longValue).sum();
        }

        /** Seconds to collect all: measured when finished, else projected from the rate so far. */
        double secondsForAll() {
            return finished ? wall : wall * subscriptions / Math.max(1, collected);
        }
    }

    private final int subscriptions;
    private final WatcherDatabase database;
    private final Path jar;
    private final Duration limit;
    private final String sinkUrl;

    private KeeperBench(int subscriptions, String postgres, Path jar, Duration limit, String sinkUrl) {
        this.subscriptions = subscriptions;
        this.database = new WatcherDatabase(postgres, DATABASE);
        this.jar = jar;
        this.limit = limit;
        this.sinkUrl = sinkUrl;
    }

    public static void main(String[] args) throws Exception {
        int subscriptions = 10_000;
        List<Integer> sends = List.of(10, 100);
        String postgres = "127.0.0.1:5432";
        Path jar = Path.of("chain-watcher/target/chain-watcher-0.1.0-SNAPSHOT.jar");
        Duration limit = Duration.ofMinutes(30);
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--subscriptions" -> subscriptions = Integer.parseInt(args[i + 1]);
                case "--sends" ->
                    sends = List.of(args[i + 1].split(",")).stream()
                            .map(Integer::parseInt)
                            .toList();
                case "--limit" -> limit = Duration.parse("PT" + args[i + 1].toUpperCase(java.util.Locale.ROOT));
                case "--postgres" -> postgres = args[i + 1];
                case "--jar" -> jar = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        HttpServer subscriptionsService = LoopbackHttpServer.create();
        subscriptionsService.createContext("/", KeeperBench::answer);
        subscriptionsService.start();
        List<Result> results = new ArrayList<>();
        try {
            KeeperBench bench = new KeeperBench(
                    subscriptions,
                    postgres,
                    jar,
                    limit,
                    "http://127.0.0.1:" + subscriptionsService.getAddress().getPort());
            for (int perPass : sends) {
                results.add(bench.measure(perPass));
            }
        } finally {
            subscriptionsService.stop(0);
        }
        print(results);
    }

    /**
     * subscriptions-service as the keeper sees it: every subscription asked about is in scope (one merchant), every log
     * reported is taken; other calls (payment-links-service's routes) are acknowledged too.
     */
    private static void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (!exchange.getRequestURI().getPath().equals("/internal/keeper/scope")) {
                exchange.sendResponseHeaders(201, -1);
                return;
            }
            List<Map<String, Object>> answers = new ArrayList<>();
            for (JsonNode id : JSON.readTree(body).get("subscription_ids")) {
                Map<String, Object> answer = new LinkedHashMap<>();
                answer.put("subscription_id", id.asString());
                answer.put("collect", true);
                answer.put("merchant_id", MERCHANT.toString());
                answers.add(answer);
            }
            byte[] reply = JSON.writeValueAsBytes(Map.of("subscriptions", answers));
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, reply.length);
            exchange.getResponseBody().write(reply);
        }
    }

    private Result measure(int sendsPerPass) throws SQLException {
        database.recreate();
        try (DevChain chain = new DevChain().start();
                RpcProxy proxy = new RpcProxy(chain.rpcUrl())) {
            SubscriptionContract contract = new SubscriptionContract(chain);
            Map<String, String> environment = database.watcherEnvironment(proxy.url(), sinkUrl);
            environment.put("KEEPER_KEY_FILE_31337", keeperKey(contract).toString());
            Path log = Path.of("bench/target/keeper-" + sendsPerPass + ".log");
            System.out.printf("max-sends-per-pass %d: starting chain-watcher (log %s)%n", sendsPerPass, log);
            try (WatcherProcess watcher = WatcherProcess.start(
                            jar,
                            environment,
                            List.of("--chain-watcher.keeper.max-sends-per-pass=" + sendsPerPass),
                            log);
                    Connection db = database.connect()) {
                WatcherDatabase.await(
                        db,
                        "SELECT coalesce(max(next_block), 0) FROM chain_cursor WHERE chain_id = 31337",
                        chain.blockNumber() + 1,
                        SETUP_TIMEOUT,
                        "the watcher's first pass");
                ChargedLogs charged = new ChargedLogs(chain, chain.blockNumber() + 1);
                subscribeAll(chain, contract);
                if (charged.charges() != subscriptions) {
                    throw new IllegalStateException("expected " + subscriptions
                            + " first periods charged at subscribe, " + "the chain shows " + charged.charges());
                }
                System.out.printf("  %,d subscriptions made; waiting for the keeper to take them in%n", subscriptions);
                WatcherDatabase.await(
                        db,
                        "SELECT count(*) FROM keeper_subscription WHERE scope = 'kept'",
                        subscriptions,
                        SETUP_TIMEOUT,
                        "the keeper taking every subscription in");
                return collectAll(chain, contract, proxy, watcher, charged, sendsPerPass);
            }
        }
    }

    /** Moves the chain one interval on and measures until every subscription's second period is charged. */
    private Result collectAll(
            DevChain chain,
            SubscriptionContract contract,
            RpcProxy proxy,
            WatcherProcess watcher,
            ChargedLogs charged,
            int sendsPerPass) {
        Map<String, Long> callsBefore = proxy.calls();
        long nodeBefore = nodeNanos(proxy);
        double cpuBefore = watcher.cpuSeconds();
        // Every subscription falls due at once: one interval on, plus the spread of the starts of their first
        // periods (anvil stamps blocks mined in a burst a second apart) and a minute, far within the hour's grace.
        chain.increaseTime(SubscriptionContract.INTERVAL + charged.spreadSeconds() + 60);
        // A block a second from here on, as a real chain makes them (anvil's one block per transaction stalled under
        // a hundred sends in a row: transactions left in its pool, unmined).
        contract.anvil("evm_setIntervalMining", 1);
        long start = System.nanoTime();
        long deadline = start + limit.toNanos();
        long collected = 0;
        long reported = 0;
        while (collected < subscriptions && System.nanoTime() < deadline) {
            WatcherProcess.pause(Duration.ofSeconds(2));
            collected = charged.charges() - subscriptions;
            if (collected - reported >= subscriptions / 10 || collected == subscriptions) {
                System.out.printf("  %,d collected after %.0f s%n", collected, (System.nanoTime() - start) / 1e9);
                reported = collected;
            }
        }
        double wall = (System.nanoTime() - start) / 1e9;
        double cpu = watcher.cpuSeconds() - cpuBefore;
        double node = (nodeNanos(proxy) - nodeBefore) / 1e9;
        Map<String, Long> calls = new LinkedHashMap<>();
        proxy.calls().forEach((method, count) -> {
            long made = count - callsBefore.getOrDefault(method, 0L);
            if (made > 0) {
                calls.put(method, made);
            }
        });
        charged.requireOncePerPeriod();
        return new Result(
                sendsPerPass,
                subscriptions,
                collected,
                calls.getOrDefault("eth_getBalance", 0L),
                calls.getOrDefault("eth_sendRawTransaction", 0L),
                calls,
                node,
                cpu,
                wall,
                collected == subscriptions);
    }

    private static long nodeNanos(RpcProxy proxy) {
        return proxy.nodeNanos().values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * One subscriber subscribes {@code subscriptions} times to one plan, each with its own ref: the transactions are
     * sent with automine off and mined together (a block holds as many as its gas limit takes), then checked.
     */
    private void subscribeAll(DevChain chain, SubscriptionContract contract) {
        Plan plan = contract.plan(0);
        byte[] signature = contract.sign(plan);
        Account subscriber = contract.subscriber(2 * subscriptions);
        BigInteger nonce = chain.web3j()
                .ethGetTransactionCount(subscriber.address(), org.web3j.protocol.core.DefaultBlockParameterName.LATEST)
                .sendAsync()
                .join()
                .getTransactionCount();
        // anvil's pool keeps a bounded number of transactions per sender: they go in batches, each mined before the
        // next is sent.
        contract.anvil("evm_setAutomine", false);
        try {
            for (int from = 0; from < subscriptions; from += BATCH) {
                for (int i = from; i < Math.min(subscriptions, from + BATCH); i++) {
                    contract.anvil(
                            "eth_sendTransaction",
                            Map.of(
                                    "from", subscriber.address(),
                                    "to", SubscriptionContract.ADDRESS,
                                    "data", SubscriptionContract.subscribeData(plan, signature, "bench-" + i),
                                    "gas", Numeric.encodeQuantity(SUBSCRIBE_GAS),
                                    "gasPrice", Numeric.encodeQuantity(GWEI.shiftLeft(1)),
                                    "nonce", Numeric.encodeQuantity(nonce.add(BigInteger.valueOf(i)))));
                }
                long deadline = System.nanoTime() + SETUP_TIMEOUT.toNanos();
                while (pending(contract) > 0) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the subscribes were not all mined");
                    }
                    // Full blocks raise the base fee 12.5 % each (EIP-1559): a setup of a hundred full blocks would
                    // price its own later transactions out. The next block's base fee stays at 1 gwei instead.
                    contract.anvil("anvil_setNextBlockBaseFeePerGas", Numeric.encodeQuantity(GWEI));
                    chain.mine(1);
                }
            }
        } finally {
            contract.anvil("evm_setAutomine", true);
        }
    }

    @SuppressWarnings("unchecked")
    private static long pending(SubscriptionContract contract) {
        Map<String, Object> status = (Map<String, Object>) contract.anvil("txpool_status");
        return Numeric.toBigInt((String) status.get("pending")).longValueExact();
    }

    /** A fresh gas-only keeper key holding 100 ETH, in a file as the watcher reads it. */
    private static Path keeperKey(SubscriptionContract contract) {
        Account keeper = contract.freshAccount();
        try {
            Path file = Path.of("bench/target/keeper-bench.key");
            Files.createDirectories(file.getParent());
            Files.writeString(
                    file, Numeric.toHexStringWithPrefixZeroPadded(keeper.key().getPrivateKey(), 64) + "\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void print(List<Result> results) {
        Result first = results.get(0);
        System.out.println();
        System.out.printf(
                "One period of %,d subscriptions due together (one 30-day plan, one subscriber), collected by the"
                        + " keeper%n",
                first.subscriptions());
        System.out.printf(
                "%10s | %9s | %6s | %7s | %10s | %11s | %12s | %12s | %14s%n",
                "sends/pass",
                "collected",
                "passes",
                "sent",
                "calls/pass",
                "time/pass",
                "CPU/collect",
                "node/collect",
                "time for all");
        for (Result result : results) {
            long passes = Math.max(1, result.passes());
            long collected = Math.max(1, result.collected());
            System.out.printf(
                    "%10d | %,9d | %,6d | %,7d | %10.1f | %8.0f ms | %9.1f ms | %9.1f ms | %11.0f s%s%n",
                    result.sendsPerPass(),
                    result.collected(),
                    result.passes(),
                    result.sent(),
                    result.totalCalls() / (double) passes,
                    result.wall() * 1000 / passes,
                    result.watcherCpu() * 1000 / collected,
                    result.nodeSeconds() * 1000 / collected,
                    result.secondsForAll(),
                    result.finished() ? "" : " (projected)");
        }
        System.out.println();
        for (Result result : results) {
            System.out.printf("calls with %d sends a pass: %s%n", result.sendsPerPass(), shortNames(result.calls()));
        }
    }

    private static String shortNames(Map<String, Long> calls) {
        List<String> parts = new ArrayList<>();
        calls.forEach((method, count) -> parts.add(method.replace("eth_", "")
                        .replace("getBlockByNumber", "block")
                        .replace("sendRawTransaction", "send")
                        .replace("getTransactionReceipt", "receipt")
                        .replace("getTransactionCount", "nonce")
                + " " + count));
        return String.join(", ", parts);
    }
}
