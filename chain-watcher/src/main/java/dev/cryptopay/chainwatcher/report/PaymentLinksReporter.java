package dev.cryptopay.chainwatcher.report;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import java.util.UUID;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Reports a transfer to (or from, {@link #reportOutgoing}) a deposit address to payment-links-service's {@code POST /internal/payment_links/{id}/transactions}, signed and
 * acknowledged as {@link ReportSender} describes. The route is idempotent on (network, tx_hash, log_index), so a
 * report repeated after a crash or by a second instance changes nothing; a refusal (4xx, e.g. 409
 * {@code illegal_transition}) is logged, counted and sent again no sooner than a minute later.
 */
@Component
public class PaymentLinksReporter {

    private final ReportSender sender;
    private final String baseUrl;

    PaymentLinksReporter(ChainWatcherProperties properties, ReportSender sender) {
        this.sender = sender;
        this.baseUrl = properties.paymentLinksUrl();
    }

    /** Reports a transfer to the link {@code paymentLinkId}; answers what became of the report, never an error. */
    public Mono<ReportOutcome> report(UUID paymentLinkId, TransactionReport report) {
        return sender.post(
                InternalCallers.PAYMENT_LINKS_SERVICE,
                baseUrl,
                "/internal/payment_links/" + paymentLinkId + "/transactions",
                report,
                "the report of " + report.txHash() + "#" + report.logIndex() + " (" + report.status() + " of link "
                        + paymentLinkId + ")");
    }

    /**
     * Reports a transfer from the deposit address of the link {@code paymentLinkId} (a refund, a sweep) to
     * {@code POST /internal/payment_links/{id}/outgoing_transfers}, delivered like {@link #report}; answers what became
     * of the report, never an error.
     */
    public Mono<ReportOutcome> reportOutgoing(UUID paymentLinkId, OutgoingTransferReport report) {
        return sender.post(
                InternalCallers.PAYMENT_LINKS_SERVICE,
                baseUrl,
                "/internal/payment_links/" + paymentLinkId + "/outgoing_transfers",
                report,
                "the report of outgoing " + report.txHash() + "#" + report.logIndex() + " (" + report.status()
                        + " of link " + paymentLinkId + ")");
    }
}
