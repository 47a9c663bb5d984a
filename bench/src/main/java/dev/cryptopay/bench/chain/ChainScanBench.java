package dev.cryptopay.bench.chain;

import com.sun.net.httpserver.HttpServer;
import dev.cryptopay.testsupport.LoopbackHttpServer;
import dev.cryptopay.testsupport.chain.DevChain;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.chain.RpcProxy;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * chain-watcher scanning the dev chain with 100, 10,000 and 100,000 watched addresses, side by side in one run: the
 * JSON-RPC calls and the CPU time (the watcher's JVM, and the PostgreSQL backends serving it) per 100 blocks, which
 * must not grow with the watch list. For each size a fresh watcher (its executable jar, its own database) scans a
 * fresh anvil through test-support's {@link RpcProxy}; the watches go straight into its database. Each round builds 100
 * blocks while the proxy holds the head back — every block with 4 token transfers to addresses nobody watches, 20 of
 * them a token payment to a watched address and 5 a native-coin one — then shows them, and measures from there until
 * the watcher has scanned all 100 and reported the 25 payments (a round whose payments were not all reported fails
 * the run: the benchmark checks it did the work it claims). {@code --warmup} rounds (5) warm the JVM up; the next
 * {@code --rounds} (5) are measured, and the median is printed.
 *
 * <pre>
 * bench/run-chain-scan [--sizes 100,10000,100000] [--warmup 5] [--rounds 5]
 * </pre>
 *
 * Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust; {@code --postgres host:port}), Node.js for the dev chain
 * (test-support's DevChain), and chain-watcher's jar ({@code bench/run-chain-scan} builds it).
 */
public final class ChainScanBench {

    static final int BLOCKS = 100;
    static final int NOISE_PER_BLOCK = 4;
    static final int TOKEN_PAYMENTS = 20;
    static final int NATIVE_PAYMENTS = 5;
    private static final String DATABASE = "chain_watcher_bench";
    private static final Duration ROUND_TIMEOUT = Duration.ofMinutes(3);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final DevChain chain;
    private final ChainTraffic traffic;
    private final RpcProxy proxy;
    private final WatcherDatabase database;
    private final Path jar;
    private final String sinkUrl;

    private ChainScanBench(DevChain chain, RpcProxy proxy, String postgres, Path jar, String sinkUrl) {
        this.chain = chain;
        this.traffic = new ChainTraffic(chain);
        this.proxy = proxy;
        this.database = new WatcherDatabase(postgres, DATABASE);
        this.jar = jar;
        this.sinkUrl = sinkUrl;
    }

    /** One measured round: calls by method, and seconds of CPU and wall time. */
    record Round(Map<String, Long> calls, double watcherCpu, double databaseCpu, double wall) {

        long totalCalls() {
            return calls.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = List.of(100, 10_000, 100_000);
        int rounds = 5;
        int warmup = 5;
        String postgres = "127.0.0.1:5432";
        Path jar = Path.of("chain-watcher/target/chain-watcher-0.1.0-SNAPSHOT.jar");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--sizes" ->
                    sizes = List.of(args[i + 1].split(",")).stream()
                            .map(Integer::parseInt)
                            .toList();
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                case "--postgres" -> postgres = args[i + 1];
                case "--jar" -> jar = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        HttpServer sink = LoopbackHttpServer.create();
        sink.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(201, -1);
            exchange.close();
        });
        sink.start();
        Map<Integer, List<Round>> results = new LinkedHashMap<>();
        try (DevChain chain = new DevChain().start();
                RpcProxy proxy = new RpcProxy(chain.rpcUrl())) {
            ChainScanBench bench = new ChainScanBench(
                    chain,
                    proxy,
                    postgres,
                    jar,
                    "http://127.0.0.1:" + sink.getAddress().getPort());
            for (int size : sizes) {
                results.put(size, bench.measure(size, warmup, rounds));
            }
        } finally {
            sink.stop(0);
        }
        print(results);
    }

    /** Starts a watcher of {@code size} addresses and measures {@code rounds} rounds of 100 blocks after a warm-up. */
    private List<Round> measure(int size, int warmup, int rounds) throws SQLException {
        database.recreate();
        proxy.showHeadUpTo(chain.blockNumber());
        Map<String, String> environment = database.watcherEnvironment(proxy.url(), sinkUrl);
        Path log = Path.of("bench/target/chain-scan-" + size + ".log");
        System.out.printf("%,d watched addresses: starting chain-watcher (log %s)%n", size, log);
        List<Round> measured = new ArrayList<>();
        try (WatcherProcess watcher = WatcherProcess.start(jar, environment, log);
                Connection db = database.connect()) {
            WatcherDatabase.await(
                    db,
                    "SELECT coalesce(max(next_block), 0) FROM chain_cursor WHERE chain_id = 31337",
                    chain.blockNumber() + 1,
                    ROUND_TIMEOUT,
                    "the watcher's first pass");
            // The same 25 addresses are paid in every round (new transfers each time), among the others watched.
            List<String> payees = watch(db, size, TOKEN_PAYMENTS + NATIVE_PAYMENTS);
            for (int round = 0; round < warmup + rounds; round++) {
                Round result = round(db, watcher, payees);
                System.out.printf(
                        "  %s: %d calls %s, watcher %.0f ms CPU, PostgreSQL %.0f ms CPU, %.0f ms%n",
                        round < warmup ? "warm-up" : "round " + (round - warmup + 1),
                        result.totalCalls(),
                        result.calls(),
                        result.watcherCpu() * 1000,
                        result.databaseCpu() * 1000,
                        result.wall() * 1000);
                if (round >= warmup) {
                    measured.add(result);
                }
            }
        }
        return measured;
    }

    /** Builds 100 blocks paying {@code payees}, shows them to the watcher and measures until all are reported. */
    private Round round(Connection db, WatcherProcess watcher, List<String> payees) throws SQLException {
        long before = chain.blockNumber();
        traffic.blocks(
                BLOCKS,
                NOISE_PER_BLOCK,
                payees.subList(0, TOKEN_PAYMENTS),
                payees.subList(TOKEN_PAYMENTS, payees.size()));
        long head = chain.blockNumber();
        if (head != before + BLOCKS) {
            throw new IllegalStateException("expected " + BLOCKS + " new blocks, the chain made " + (head - before));
        }
        Map<String, Long> callsBefore = proxy.calls();
        double watcherBefore = watcher.cpuSeconds();
        Map<Long, Double> databaseBefore = backendCpu(db);
        long start = System.nanoTime();
        proxy.showHeadUpTo(head);
        long deadline = start + ROUND_TIMEOUT.toNanos();
        while (!done(db, before, head, payees.size())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "the watcher did not scan and report the round within " + ROUND_TIMEOUT);
            }
            WatcherProcess.pause(Duration.ofMillis(10));
        }
        double wall = (System.nanoTime() - start) / 1e9;
        double watcherCpu = watcher.cpuSeconds() - watcherBefore;
        double databaseCpu = 0;
        for (Map.Entry<Long, Double> backend : backendCpu(db).entrySet()) {
            databaseCpu += backend.getValue() - databaseBefore.getOrDefault(backend.getKey(), 0.0);
        }
        Map<String, Long> calls = new LinkedHashMap<>();
        proxy.calls().forEach((method, count) -> {
            long made = count - callsBefore.getOrDefault(method, 0L);
            if (made > 0) {
                calls.put(method, made);
            }
        });
        return new Round(calls, watcherCpu, databaseCpu, wall);
    }

    /** Whether the watcher has scanned (head + 1 is its cursor) and reported every payment of the round. */
    private static boolean done(Connection db, long before, long head, int payments) throws SQLException {
        try (PreparedStatement query = db.prepareStatement("""
                SELECT (SELECT next_block FROM chain_cursor WHERE chain_id = 31337) AS cursor,
                       (SELECT count(*) FROM detected_transfer WHERE chain_id = 31337 AND block_number > ?
                          AND block_number <= ? AND reported_status IS NOT NULL) AS reported""")) {
            query.setLong(1, before);
            query.setLong(2, head);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong("cursor") == head + 1 && row.getLong("reported") == payments;
            }
        }
    }

    /**
     * Puts {@code size} watched addresses into the watcher's database ({@code paid} of them known, the rest random) and
     * waits until the watcher has taken them in; answers the known ones.
     */
    private static List<String> watch(Connection db, int size, int paid) throws SQLException {
        if (size < paid) {
            throw new IllegalArgumentException("at least " + paid + " addresses are paid in the rounds");
        }
        List<String> known = new ArrayList<>();
        try (PreparedStatement insert = db.prepareStatement("""
                INSERT INTO watched_address (payment_link_id, chain_id, network, deposit_address, token_contract,
                    decimals, amount_base_units, expires_at, watch_until, link_created_at, created_at)
                VALUES (gen_random_uuid(), 31337, 'Local dev chain', ?, ?, 6, 1000000, now() + interval '1 day',
                    now() + interval '2 days', now(), now())""")) {
            for (int i = 0; i < size; i++) {
                String address = "0x" + HexFormat.of().formatHex(bytes(20));
                if (i < paid) {
                    known.add(address);
                }
                insert.setString(1, address);
                insert.setString(2, DevTokens.USDC.address().toLowerCase(java.util.Locale.ROOT));
                insert.addBatch();
                if (i % 5000 == 4999 || i == size - 1) {
                    insert.executeBatch();
                }
            }
        }
        long deadline = System.nanoTime() + ROUND_TIMEOUT.toNanos();
        while (WatcherDatabase.count(db, "SELECT count(*) FROM watched_address WHERE NOT backfilled") > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the watcher did not take the watches in");
            }
            WatcherProcess.pause(Duration.ofMillis(50));
        }
        return known;
    }

    /** CPU seconds so far of each PostgreSQL backend serving the watcher's database, by pid (not this connection). */
    private static Map<Long, Double> backendCpu(Connection db) throws SQLException {
        Map<Long, Double> cpu = new LinkedHashMap<>();
        try (Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery("SELECT pid FROM pg_stat_activity WHERE datname = '" + DATABASE
                        + "' AND pid <> pg_backend_pid()")) {
            while (rows.next()) {
                cpu.put(rows.getLong(1), WatcherProcess.cpuSeconds(rows.getLong(1)));
            }
        }
        return cpu;
    }

    private static byte[] bytes(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    /** The medians side by side: one line per size. */
    private static void print(Map<Integer, List<Round>> results) {
        System.out.println();
        System.out.printf(
                "Per %d blocks (%d token and %d native payments, %d other token transfers), median of %d rounds%n",
                BLOCKS,
                TOKEN_PAYMENTS,
                NATIVE_PAYMENTS,
                BLOCKS * NOISE_PER_BLOCK,
                results.values().iterator().next().size());
        System.out.printf(
                "%18s | %9s | %-36s | %16s | %19s | %9s%n",
                "watched addresses", "RPC calls", "by method", "watcher CPU (ms)", "PostgreSQL CPU (ms)", "wall (ms)");
        results.forEach((size, rounds) -> {
            Round median = rounds.stream()
                    .sorted(java.util.Comparator.comparingDouble(Round::watcherCpu))
                    .toList()
                    .get(rounds.size() / 2);
            System.out.printf(
                    "%,18d | %9d | %-36s | %16.0f | %19.0f | %9.0f%n",
                    size,
                    median.totalCalls(),
                    shortNames(median.calls()),
                    median(rounds, Round::watcherCpu) * 1000,
                    median(rounds, Round::databaseCpu) * 1000,
                    median(rounds, Round::wall) * 1000);
        });
    }

    private static double median(List<Round> rounds, java.util.function.ToDoubleFunction<Round> value) {
        double[] values = rounds.stream().mapToDouble(value).sorted().toArray();
        return values[values.length / 2];
    }

    private static String shortNames(Map<String, Long> calls) {
        List<String> parts = new ArrayList<>();
        calls.forEach((method, count) ->
                parts.add(method.replace("eth_", "").replace("getBlockByNumber", "block") + " " + count));
        return String.join(", ", parts);
    }
}
