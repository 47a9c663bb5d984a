package dev.cryptopay.chainwatcher.report;

import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Reports a log of a subscription contract to subscriptions-service's {@code POST /internal/chain/logs}, signed and
 * acknowledged as {@link ReportSender} describes. The route is idempotent on (chain_id, tx_hash, log_index), so a
 * report repeated after a crash or by a second instance changes nothing; a refused log (4xx) is logged, counted and
 * sent again no sooner than a minute later.
 */
@Component
public class SubscriptionsReporter {

    /** The receiving route. */
    public static final String PATH = "/internal/chain/logs";

    private final ReportSender sender;
    private final String baseUrl;

    SubscriptionsReporter(ChainWatcherProperties properties, ReportSender sender) {
        this.sender = sender;
        this.baseUrl = properties.subscriptionsUrl();
    }

    /** Reports one log; answers what became of the report, never an error. */
    public Mono<ReportOutcome> report(ContractLogReport report) {
        return sender.post(
                "subscriptions-service",
                baseUrl,
                PATH,
                report,
                "the log " + report.txHash() + "#" + report.logIndex() + " of chain " + report.chainId()
                        + (report.removed() ? " (removed)" : ""));
    }
}
