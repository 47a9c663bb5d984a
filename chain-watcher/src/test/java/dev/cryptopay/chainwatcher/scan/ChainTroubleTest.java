package dev.cryptopay.chainwatcher.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.config.TestNetworks;
import dev.cryptopay.testsupport.chain.DevTokens;
import dev.cryptopay.testsupport.chain.RpcProxy;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.web3j.protocol.core.DefaultBlockParameter;

/**
 * What the node makes hard, on a real anvil chain (behind a test proxy where the node must refuse or be counted):
 * eth_getLogs refused as too large, a head below the cursor, a watch that arrives later than the look-back reaches,
 * and the number of calls a pass makes, which does not grow with the watch list.
 */
class ChainTroubleTest extends ScannerTestBase {

    private static final DevTokens USDC = DevTokens.USDC;

    @Test
    void aRangeRefusedAsTooLargeIsAskedForInHalvesAndNoTransferIsMissed() {
        String deposit = freshAddress();
        UUID link = announce(deposit, USDC.address(), 6, "9000000", inAnHour());
        scan();
        String early = pay(USDC, deposit, "4");
        CHAIN.mine(6);
        String late = pay(USDC, deposit, "5");
        CHAIN.mine(3);

        try (RpcProxy proxy = new RpcProxy(CHAIN.rpcUrl()).refuseLogsOver(3)) {
            withScannerVia(proxy, scanner -> {
                assertThat(scanner.pass().block())
                        .as("13 blocks, scanned in one pass")
                        .isTrue();
                assertThat(proxy.refused())
                        .as("the range was refused, then asked for in halves")
                        .isPositive();
                assertThat(proxy.calls().get("eth_getLogs")).isGreaterThan(2 * proxy.refused());
            });
            // A single block the node still refuses is a real failure: the pass fails, the cursor stays.
            proxy.refuseLogsOver(0);
            long cursor = cursor();
            CHAIN.mine(1);
            withScannerVia(
                    proxy,
                    scanner -> assertThat(scanner.pass().onErrorReturn(false).block())
                            .isFalse());
            assertThat(cursor()).isEqualTo(cursor);
        }
        scan();

        assertThat(reports(link))
                .extracting(report -> report.get("tx_hash").asString())
                .contains(early, late);
    }

    @Test
    void aHeadBelowTheCursorRewindsToTheNewestCommonBlockAndReportsWhatIsGoneAsFailed() {
        String deposit = freshAddress();
        UUID link = announce(deposit, USDC.address(), 6, "3000000", inAnHour());
        scan();
        String snapshot = CHAIN.snapshot();
        String gone = pay(USDC, deposit, "1");
        CHAIN.mine(4);
        scan();
        assertThat(reports(link))
                .extracting(report -> report.get("tx_hash").asString())
                .contains(gone);
        long cursor = cursor();

        CHAIN.revert(snapshot); // the node is reset to an earlier state: its head is below the cursor
        String replacement = pay(USDC, deposit, "2");
        assertThat(CHAIN.blockNumber()).isLessThan(cursor - 1);
        scan();
        assertThat(cursor())
                .as("rewound to the newest block the chain still has")
                .isLessThan(cursor);
        assertThat(statuses(link, gone))
                .as("not failed yet: a node that is merely behind takes nothing away")
                .doesNotContain("failed");
        assertThat(statuses(link, replacement)).containsExactly("pending");

        CHAIN.mine(6); // the new chain grows past where the cursor was
        scan();
        assertThat(CHAIN.receipt(gone)).isEmpty();
        assertThat(statuses(link, gone)).endsWith("failed");
        assertThat(statuses(link, replacement)).contains("confirmed");
    }

    @Test
    void aHeadBelowTheCursorWithNothingInCommonWaitsAndSaysSo() {
        scan();
        String snapshot = CHAIN.snapshot();
        CHAIN.mine(40); // more than the reorganisation window (16) of blocks whose hashes are kept
        scan();
        CHAIN.revert(snapshot);
        CHAIN.sendNative(CHAIN.accounts().get(3), freshAddress(), BigInteger.ONE); // a block of its own

        for (int pass = 0; pass < 3; pass++) {
            assertThat(scanners.scanOnce().block())
                    .as("checked each pass, never a failure")
                    .isTrue();
        }
        assertThat(gauge("chain_watcher_cursor_ahead_of_head")).isEqualTo(1);

        // An operator moves the cursor (docs/runbooks/alerts.md): scanning goes on from there.
        database.sql("DELETE FROM chain_block WHERE chain_id = 31337").then().block();
        database.sql("UPDATE chain_cursor SET next_block = :next WHERE chain_id = 31337")
                .bind("next", CHAIN.blockNumber())
                .then()
                .block();
        scan();
        assertThat(gauge("chain_watcher_cursor_ahead_of_head")).isEqualTo(0);
    }

    @Test
    void aWatchArrivingLaterThanTheLookBackReachesIsCountedAndTheLookBackIsStillSearched() {
        scan(); // whatever earlier tests left unsearched is searched now
        double before = counter("chain_watcher_watches_late_total");
        Instant longAgo = blockTime(CHAIN.blockNumber());
        CHAIN.increaseTime(600);
        String lateDeposit = freshAddress();
        String onTimeDeposit = freshAddress();
        CHAIN.mine(LOOK_BACK_BLOCKS + 5);
        String found = pay(USDC, lateDeposit, "1"); // inside the look-back
        scan();

        UUID lateLink = announce(lateDeposit, USDC.address(), 6, "1000000", inAnHour(), longAgo);
        UUID onTime = announce(onTimeDeposit, USDC.address(), 6, "1000000", inAnHour(), blockTime(CHAIN.blockNumber()));
        scan();

        assertThat(counter("chain_watcher_watches_late_total") - before).isEqualTo(1);
        assertThat(reports(lateLink))
                .extracting(report -> report.get("tx_hash").asString())
                .contains(found);
        assertThat(reports(onTime)).isEmpty();
    }

    @Test
    void aPassMakesAsManyCallsForThousandsOfWatchedAddressesAsForAFew() {
        scan();
        try (RpcProxy proxy = new RpcProxy(CHAIN.rpcUrl())) {
            Map<String, Long> few = callsToScanTenBlocks(proxy, 5);
            Map<String, Long> many = callsToScanTenBlocks(proxy, 5000);
            assertThat(many).isEqualTo(few);
            assertThat(few.get("eth_getBlockByNumber"))
                    .as(
                            "each of the ten blocks once, and the newest block scanned before, compared for reorganisations")
                    .isEqualTo(11L);
            assertThat(few.get("eth_getLogs"))
                    .as("the followed tokens' transfers, the contract's logs")
                    .isEqualTo(2L);
        } finally {
            database.sql("DELETE FROM watched_address WHERE network = 'bench'")
                    .then()
                    .block();
        }
        scan();
    }

    /** Watches {@code count} more addresses, mines ten blocks paying one of them, and scans them through the proxy. */
    private Map<String, Long> callsToScanTenBlocks(RpcProxy proxy, int count) {
        String paid = freshAddress();
        database.sql("""
                        INSERT INTO watched_address (payment_link_id, chain_id, network, deposit_address,
                            token_contract, decimals, amount_base_units, expires_at, watch_until, backfilled, created_at)
                        SELECT gen_random_uuid(), 31337, 'bench',
                            CASE WHEN n = 1 THEN :paid
                                 ELSE '0x' || md5(random()::text) || substr(md5(random()::text), 1, 8) END,
                            :token, 6, 1, now() + interval '1 hour', now() + interval '1 hour', TRUE, now()
                        FROM generate_series(1, :count) AS n""")
                .bind("paid", paid)
                .bind("token", USDC.address().toLowerCase())
                .bind("count", count)
                .then()
                .block();
        withScannerVia(proxy, scanner -> assertThat(scanner.pass().block()).isTrue());
        CHAIN.mine(8);
        pay(USDC, paid, "1"); // two blocks: the mint and the transfer
        proxy.reset();
        withScannerVia(proxy, scanner -> assertThat(scanner.pass().block()).isTrue());
        return proxy.calls();
    }

    /**
     * Runs a scanner of the dev chain reached through {@code proxy}, with this test's lease (the application's scanner
     * gets the chain back afterwards, and loads its watch list again, as after any change of hands).
     */
    private void withScannerVia(RpcProxy proxy, Consumer<ChainScanner> use) {
        Network dev = properties.networks().get(0);
        Network network =
                TestNetworks.of(dev).withRpcUrl(proxy.url()).withoutKeeperKey().applyTo(dev);
        withScanner(network, "test-proxied", use);
    }

    private long cursor() {
        return database.sql("SELECT next_block FROM chain_cursor WHERE chain_id = 31337")
                .map(row -> row.get("next_block", Long.class))
                .one()
                .block();
    }

    /** The statuses reported for one transaction of a link, in order. */
    private List<String> statuses(UUID link, String tx) {
        return reports(link).stream()
                .filter(report -> report.get("tx_hash").asString().equals(tx))
                .map(report -> report.get("status").asString())
                .toList();
    }

    private double gauge(String name) {
        return metric(prometheus(), name);
    }

    /** A counter of the dev chain (0 before its first increment). */
    private double counter(String name) {
        return prometheus()
                .lines()
                .filter(line -> line.startsWith(name + "{") && line.contains("chain_id=\"31337\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    private static Instant blockTime(long number) {
        try {
            return Instant.ofEpochSecond(CHAIN.web3j()
                    .ethGetBlockByNumber(DefaultBlockParameter.valueOf(BigInteger.valueOf(number)), false)
                    .send()
                    .getBlock()
                    .getTimestamp()
                    .longValueExact());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String pay(DevTokens token, String deposit, String amount) {
        String payer = CHAIN.accounts().get(1);
        BigInteger units = units(amount, token.decimals());
        CHAIN.mint(token, payer, units);
        return CHAIN.transferToken(payer, token, deposit, units);
    }

    private static Instant inAnHour() {
        return Instant.now().plusSeconds(3600);
    }
}
