package dev.cryptopay.paymentlinks.transaction;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.auth.internal.InternalCallers;
import dev.cryptopay.paymentlinks.paymentlink.PaymentLink;
import dev.cryptopay.service.identity.AllowedCallers;
import dev.cryptopay.service.money.Amounts;
import dev.cryptopay.service.request.DecimalField;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import dev.cryptopay.service.request.WholeField;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.PathIds;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Internal routes that change what a link was paid, for the chain watcher only: they are never routed by the gateway,
 * and they accept only a token of the caller {@code chain-watcher} (its own secret); a valid gateway token is 403.
 * {@code POST /internal/payment_links/{id}/transactions} records a transaction report;
 * {@code POST /internal/payment_links/{id}/refunds} records the refund of a confirmed one. 201 for a new record,
 * 200 for a repeated report.
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

    private static final TextField NETWORK = Field.string("network").required().length(1, 100);
    private static final TextField TX_HASH = Field.string("tx_hash").required().length(1, 200);
    private static final TextField PAYER_ADDRESS =
            Field.string("payer_address").required().length(1, 200);
    private static final DecimalField CRYPTO_AMOUNT =
            Field.money("crypto_amount").required().allowZero();
    private static final DecimalField FIAT_AMOUNT = Field.money("fiat_amount").allowZero();
    private static final TextField STATUS = Field.string("status").required().length(1, 20);
    private static final WholeField CONFIRMATIONS =
            Field.integer("confirmations").range(0, Integer.MAX_VALUE);
    private static final WholeField REQUIRED_CONFIRMATIONS =
            Field.integer("required_confirmations").range(1, Integer.MAX_VALUE);
    private static final List<String> REPORT_FIELDS = List.of(
            "network",
            "tx_hash",
            "payer_address",
            "crypto_amount",
            "fiat_amount",
            "status",
            "confirmations",
            "required_confirmations");

    @PostMapping("/internal/payment_links/{id}/transactions")
    Mono<ResponseEntity<Envelope<Recording>>> record(
            @PathVariable String id, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> report(body))
                .flatMap(report -> service.record(linkId(id), report))
                .map(recorded -> ResponseEntity.status(recorded.created() ? 201 : 200)
                        .body(render("Transaction recorded", recorded)));
    }

    @PostMapping("/internal/payment_links/{id}/refunds")
    Mono<ResponseEntity<Envelope<Recording>>> refund(
            @PathVariable String id, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> {
                    JsonNode root = JsonBody.object(json, body);
                    Violations violations = new Violations();
                    violations.rejectUnknown(root, "", List.of("network", "tx_hash"));
                    RefundReport refund =
                            new RefundReport(NETWORK.read(root, violations), TX_HASH.read(root, violations));
                    violations.throwIfAny();
                    return refund;
                })
                .flatMap(refund -> service.refund(linkId(id), refund.network(), refund.txHash()))
                .map(recorded -> ResponseEntity.ok(render("Refund recorded", recorded)));
    }

    /** Which confirmed transaction a refund is for. */
    private record RefundReport(String network, String txHash) {}

    private TransactionReport report(String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", REPORT_FIELDS);
        String network = NETWORK.read(root, violations);
        String txHash = TX_HASH.read(root, violations);
        String payer = PAYER_ADDRESS.read(root, violations);
        BigDecimal crypto = CRYPTO_AMOUNT.read(root, violations);
        BigDecimal fiat = FIAT_AMOUNT.read(root, violations);
        String statusText = STATUS.read(root, violations);
        TransactionStatus status = statusText == null ? null : TransactionStatus.fromWireName(statusText);
        if (statusText != null && (status == null || status == TransactionStatus.REFUNDED)) {
            violations.reject("status", "status must be one of pending, confirmed, failed");
        }
        Integer confirmations = CONFIRMATIONS.read(root, violations);
        Integer required = REQUIRED_CONFIRMATIONS.read(root, violations);
        violations.throwIfAny();
        return new TransactionReport(
                network, txHash, payer, crypto, fiat, status, confirmations == null ? 0 : confirmations, required);
    }

    /** The transaction as stored and the link's state after it. */
    record Recording(TransactionResponse transaction, LinkState paymentLink) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TransactionResponse(
            String id,
            String network,
            String txHash,
            String payerAddress,
            BigDecimal cryptoAmount,
            BigDecimal fiatAmount,
            String status,
            int confirmations,
            Integer requiredConfirmations,
            boolean countedAsUse,
            boolean late) {}

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
                                transaction.payerAddress(),
                                Amounts.jsonNumber(transaction.cryptoAmount()),
                                Amounts.jsonNumber(transaction.fiatAmount()),
                                transaction.status().wireName(),
                                transaction.confirmations(),
                                transaction.requiredConfirmations(),
                                transaction.countedAsUse(),
                                transaction.late()),
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
