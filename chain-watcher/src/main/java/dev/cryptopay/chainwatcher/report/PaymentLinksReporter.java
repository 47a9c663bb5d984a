package dev.cryptopay.chainwatcher.report;

import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.auth.internal.InternalHeaders;
import dev.cryptopay.auth.internal.InternalIdentityToken;
import dev.cryptopay.auth.internal.InternalRequest;
import dev.cryptopay.chainwatcher.config.ChainWatcherProperties;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reports a transfer to {@code POST /internal/payment_links/{id}/transactions} with an internal token of the caller
 * {@code chain-watcher} (its own secret), bound to the path and the exact body bytes sent and issued when the request
 * is made (a retry next pass gets a fresh one). The route is
 * idempotent on (network, tx_hash), so a report repeated after a crash or by a second instance changes nothing.
 * Answers whether payment-links-service acknowledged the report: 2xx, or a 4xx it will answer forever (a refused
 * transition is logged and not retried); a 5xx, a timeout or a connection error answers false and the report is sent
 * again on the next pass.
 */
@Component
public class PaymentLinksReporter {

    private static final Logger log = LoggerFactory.getLogger(PaymentLinksReporter.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final WebClient web;
    private final String baseUrl;
    private final InternalIdentityToken tokens;
    private final JsonMapper json;
    private final Clock clock;

    PaymentLinksReporter(ChainWatcherProperties properties, ReportAuthProperties auth, JsonMapper json, Clock clock) {
        this.web = WebClient.create();
        this.baseUrl = properties.paymentLinksUrl().replaceAll("/+$", "");
        this.tokens = InternalIdentityToken.fromSecret(InternalCallers.CHAIN_WATCHER, auth.secret());
        this.json = json;
        this.clock = clock;
    }

    /** Reports a transfer to the link {@code paymentLinkId}; answers whether it was acknowledged, never an error. */
    public Mono<Boolean> report(UUID paymentLinkId, TransactionReport report) {
        // The token binds the path exactly as sent, so the full address is made here (a base URL may have a path).
        URI target = URI.create(baseUrl + "/internal/payment_links/" + paymentLinkId + "/transactions");
        byte[] bytes = json.writeValueAsBytes(report);
        InternalRequest signed = InternalRequest.of("POST", target.getRawPath(), target.getRawQuery(), bytes);
        return Mono.defer(() -> web.post()
                        .uri(target)
                        .header(InternalHeaders.INTERNAL_AUTH, tokens.issue(null, signed, clock.instant()))
                        .contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(bytes)
                        .exchangeToMono(response -> response.bodyToMono(String.class)
                                .defaultIfEmpty("")
                                .map(text -> {
                                    int status = response.statusCode().value();
                                    if (status >= 500) {
                                        log.warn("Report of {} answered {}: {}", report.txHash(), status, text);
                                        return false;
                                    }
                                    if (status >= 400) {
                                        log.error(
                                                "payment-links-service refused the report of {} ({} of link {}): {} {}",
                                                report.txHash(),
                                                report.status(),
                                                paymentLinkId,
                                                status,
                                                text);
                                    }
                                    return true;
                                })))
                .timeout(TIMEOUT)
                .onErrorResume(failure -> {
                    log.warn("Report of {} failed, sent again next pass: {}", report.txHash(), failure.toString());
                    return Mono.just(false);
                });
    }
}
