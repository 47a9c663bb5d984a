package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.ChainWatcherTestBase;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties.Network;
import dev.cryptopay.chainwatcher.report.PaymentLinksReporter;
import dev.cryptopay.chainwatcher.report.SubscriptionsReporter;
import dev.cryptopay.chainwatcher.watch.WatchRepository;
import java.util.List;
import java.util.function.Consumer;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * For tests that run chain scanners of their own beside the application's (through a proxy, with other token or price
 * settings, several instances at once): {@link #scanner} makes one of the application's beans as
 * {@link ChainScanners} does, {@link #withScanner} runs one with the chain's lease. In this package because the
 * scanner and most of its parts are package-private.
 */
abstract class ScannerTestBase extends ChainWatcherTestBase {

    @Autowired
    protected ChainWatcherProperties properties;

    @Autowired
    protected TransferRepository transfers;

    @Autowired
    private CursorRepository cursors;

    @Autowired
    private WatchRepository watches;

    @Autowired
    private PaymentLinksReporter reporter;

    @Autowired
    private ContractLogRepository contractLogs;

    @Autowired
    private SubscriptionsReporter subscriptions;

    @Autowired
    private ChainMetrics metrics;

    /** A scanner of {@code network} named {@code instance}, without leased work; the caller closes it. */
    protected ChainScanner scanner(Network network, String instance) {
        ChainClient client = new ChainClient(network);
        return new ChainScanner(
                network,
                client,
                cursors,
                transfers,
                watches,
                reporter,
                new ContractLogFollower(network, client, contractLogs, subscriptions, metrics),
                List.of(),
                metrics,
                properties,
                instance,
                clock);
    }

    /**
     * Runs a scanner of {@code network} named {@code instance} with this test's lease: released before, so the
     * scanner takes the chain, and after, so the application's scanner gets it back (and loads its watch list again,
     * as after any change of hands).
     */
    protected void withScanner(Network network, String instance, Consumer<ChainScanner> use) {
        ChainScanner scanner = scanner(network, instance);
        releaseLease();
        try {
            use.accept(scanner);
        } finally {
            scanner.close();
            releaseLease();
        }
    }

    /** Frees every chain's lease: the next scanner to pass takes it. */
    protected void releaseLease() {
        database.sql("UPDATE chain_cursor SET leased_by = NULL, lease_until = NULL")
                .then()
                .block();
    }
}
