package dev.cryptopay.chainwatcher.scan;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import dev.cryptopay.chainwatcher.report.PaymentLinksReporter;
import dev.cryptopay.chainwatcher.report.SubscriptionsReporter;
import dev.cryptopay.chainwatcher.watch.WatchRepository;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One {@link ChainScanner} per configured network, started and stopped with the application, each with the
 * {@link LeasedWork} the {@link LeasedWork.Source} beans give its chain.
 */
@Component
public class ChainScanners implements SmartLifecycle {

    private final List<ChainScanner> scanners;
    private volatile boolean running;

    ChainScanners(
            ChainWatcherProperties properties,
            CursorRepository cursors,
            TransferRepository transfers,
            WatchRepository watches,
            PaymentLinksReporter reporter,
            ContractLogRepository contractLogs,
            SubscriptionsReporter subscriptions,
            ChainMetrics metrics,
            ObjectProvider<LeasedWork.Source> leasedWork,
            Clock clock) {
        String instance = UUID.randomUUID().toString();
        this.scanners = properties.networks().stream()
                .map(network -> {
                    ChainClient client = new ChainClient(network);
                    return new ChainScanner(
                            network,
                            client,
                            cursors,
                            transfers,
                            watches,
                            reporter,
                            new ContractLogFollower(network, client, contractLogs, subscriptions, metrics),
                            leasedWork
                                    .orderedStream()
                                    .flatMap(source -> source.forChain(network, client).stream())
                                    .toList(),
                            metrics,
                            properties,
                            instance,
                            clock);
                })
                .toList();
    }

    /**
     * One pass over every chain, one after the other, answering whether all are scanned up to their heads. For tests
     * that run with {@code chain-watcher.scan-enabled=false} and drive scanning themselves.
     */
    public Mono<Boolean> scanOnce() {
        return Flux.fromIterable(scanners).concatMap(ChainScanner::pass).all(caughtUp -> caughtUp);
    }

    @Override
    public void start() {
        scanners.forEach(ChainScanner::start);
        running = true;
    }

    @Override
    public void stop() {
        scanners.forEach(ChainScanner::stop);
        scanners.forEach(ChainScanner::close);
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
