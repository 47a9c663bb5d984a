package dev.cryptopay.paymentlinks.transaction;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLink;
import dev.cryptopay.service.identity.AllowedCallers;
import dev.cryptopay.service.money.Amounts;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.PathIds;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.UUID;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The internal route that records what a link was paid, for the chain watcher only: it is never routed by the gateway,
 * and it accepts only a token of the caller {@code chain-watcher} (its own secret); a valid gateway token is 403.
 * {@code POST /internal/payment_links/{id}/transactions} records the report of one transfer (network, tx_hash,
 * log_index). 201 for a new record, 200 for a repeated or progressing report; 4xx only for what no ordinary sequence
 * of reports sends (see {@link TransactionService}), since the watcher alerts on every one. Refunds are the
 * merchant's ({@code POST /payment_links/{id}/refunds}) and are recognised by the deposit address's outgoing transfers.
 */
@RestController
@AllowedCallers(InternalCallers.CHAIN_WATCHER)
class InternalTransactionController {

    private final TransactionService service;
    private final JsonMapper json;
    private final Clock clock;

    InternalTransactionController(TransactionService service, JsonMapper json, Clock clock) {
        this.service = service;
        this.json = json;
        this.clock = clock;
    }

    @PostMapping("/internal/payment_links/{id}/transactions")
    Mono<ResponseEntity<Envelope<Recording>>> record(
            @PathVariable String id, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> TransactionReport.parse(json, body))
                .flatMap(report -> service.record(linkId(id), report))
                .map(recorded -> ResponseEntity.status(recorded.created() ? 201 : 200)
                        .body(render("Transaction recorded", recorded)));
    }

    /** The transaction as stored and the link's state after it. */
    record Recording(TransactionResponse transaction, LinkState paymentLink) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TransactionResponse(
            String id,
            String network,
            String txHash,
            int logIndex,
            String tokenContract,
            String asset,
            String payerAddress,
            BigDecimal cryptoAmount,
            @JsonInclude(JsonInclude.Include.ALWAYS) BigDecimal fiatAmount,
            BigDecimal refundedAmount,
            String status,
            int confirmations,
            Integer requiredConfirmations,
            boolean countedAsUse,
            boolean late,
            boolean unexpectedAsset) {}

    record LinkState(String id, String paymentStatus, int currentUses, int maxUses) {}

    private Envelope<Recording> render(String message, TransactionService.Recorded recorded) {
        LinkTransaction transaction = recorded.transaction();
        PaymentLink link = recorded.link();
        return Envelope.of(
                message,
                new Recording(
                        new TransactionResponse(
                                transaction.id().toString(),
                                transaction.network(),
                                transaction.txHash(),
                                transaction.logIndex(),
                                transaction.tokenContract(),
                                transaction.asset(),
                                transaction.payerAddress(),
                                Amounts.jsonNumber(transaction.cryptoAmount()),
                                Amounts.jsonNumber(transaction.fiatAmount()),
                                Amounts.jsonNumber(transaction.refundedAmount()),
                                transaction.status().wireName(),
                                transaction.confirmations(),
                                transaction.requiredConfirmations(),
                                transaction.countedAsUse(),
                                transaction.late(),
                                transaction.unexpectedAsset()),
                        new LinkState(
                                link.id().toString(),
                                link.effectiveStatus(clock.instant()).wireName(),
                                link.currentUses(),
                                link.maxUses())));
    }

    private static UUID linkId(String text) {
        return PathIds.uuid(text, "payment link");
    }
}
