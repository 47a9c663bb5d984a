package dev.cryptopay.chainwatcher.report;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import java.util.List;
import java.util.UUID;
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

    /** The route that says which subscriptions the keeper may collect. */
    public static final String SCOPE_PATH = "/internal/keeper/scope";

    /** A question of the keeper: which of these subscriptions (0x-hex ids) of the contract may it collect? */
    public record ScopeQuestion(long chainId, String contract, List<String> subscriptionIds) {}

    /** subscriptions-service's answer: one per id asked, in the order asked. */
    public record ScopeAnswers(List<ScopeAnswer> subscriptions) {}

    /**
     * Whether to collect one subscription, the merchant account whose link holds it (null when none) and, when not
     * collected, why.
     */
    public record ScopeAnswer(String subscriptionId, boolean collect, UUID merchantId, String reason) {}

    private final ReportSender sender;
    private final String baseUrl;

    SubscriptionsReporter(ChainWatcherProperties properties, ReportSender sender) {
        this.sender = sender;
        this.baseUrl = properties.subscriptionsUrl();
    }

    /** Reports one log; answers what became of the report, never an error. */
    public Mono<ReportOutcome> report(ContractLogReport report) {
        return sender.post(
                InternalCallers.SUBSCRIPTIONS_SERVICE,
                baseUrl,
                PATH,
                report,
                "the log " + report.txHash() + "#" + report.logIndex() + " of chain " + report.chainId()
                        + (report.removed() ? " (removed)" : ""));
    }

    /**
     * Asks which of the subscriptions the keeper may collect (at most 1,000 ids a question); an error when
     * subscriptions-service does not answer: then the keeper collects nothing.
     */
    public Mono<ScopeAnswers> scope(ScopeQuestion question) {
        return sender.ask(InternalCallers.SUBSCRIPTIONS_SERVICE, baseUrl, SCOPE_PATH, question, ScopeAnswers.class);
    }
}
