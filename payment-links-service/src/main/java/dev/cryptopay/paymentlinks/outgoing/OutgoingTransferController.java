package dev.cryptopay.paymentlinks.outgoing;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.paymentlinks.paymentlink.RefundResponse;
import dev.cryptopay.service.identity.AllowedCallers;
import dev.cryptopay.service.money.Amounts;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.PathIds;
import java.math.BigDecimal;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /internal/payment_links/{id}/outgoing_transfers}: the chain watcher reports one transfer out of the link's
 * deposit address. Like the transactions route it is never routed by the gateway and accepts only chain-watcher's own
 * token (a gateway token is 403). 201 for a new record, 200 for a repeated or progressing report; 4xx only for what no
 * ordinary sequence of reports sends (see {@link OutgoingTransferService}), since the watcher alerts on every one.
 */
@RestController
@AllowedCallers(InternalCallers.CHAIN_WATCHER)
class OutgoingTransferController {

    private final OutgoingTransferService service;
    private final JsonMapper json;

    OutgoingTransferController(OutgoingTransferService service, JsonMapper json) {
        this.service = service;
        this.json = json;
    }

    @PostMapping("/internal/payment_links/{id}/outgoing_transfers")
    Mono<ResponseEntity<Envelope<Recording>>> record(
            @PathVariable String id, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> OutgoingTransferReport.parse(json, body))
                .flatMap(report -> service.record(PathIds.uuid(id, "payment link"), report))
                .map(recorded -> ResponseEntity.status(recorded.created() ? 201 : 200)
                        .body(Envelope.of("Outgoing transfer recorded", render(recorded))));
    }

    /** The transfer as stored and the refund it pays (absent for a withdrawal), after the report. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Recording(TransferResponse transfer, RefundResponse refund) {}

    /** @param refundId the refund it pays; absent for a withdrawal */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TransferResponse(
            String id,
            String paymentLinkId,
            String network,
            String txHash,
            int logIndex,
            String tokenContract,
            String asset,
            String fromAddress,
            String toAddress,
            BigDecimal cryptoAmount,
            String status,
            int confirmations,
            Integer requiredConfirmations,
            String refundId,
            boolean withdrawal) {}

    private static Recording render(OutgoingTransferService.Recorded recorded) {
        OutgoingTransfer transfer = recorded.transfer();
        return new Recording(
                new TransferResponse(
                        transfer.id().toString(),
                        transfer.paymentLinkId().toString(),
                        transfer.network(),
                        transfer.txHash(),
                        transfer.logIndex(),
                        transfer.tokenContract(),
                        transfer.asset(),
                        transfer.fromAddress(),
                        transfer.toAddress(),
                        Amounts.jsonNumber(transfer.cryptoAmount()),
                        transfer.status().wireName(),
                        transfer.confirmations(),
                        transfer.requiredConfirmations(),
                        transfer.refundId() == null ? null : transfer.refundId().toString(),
                        transfer.refundId() == null),
                recorded.refund() == null ? null : RefundResponse.of(recorded.refund()));
    }
}
