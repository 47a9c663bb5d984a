package dev.cryptopay.paymentlinks.transaction;

import dev.cryptopay.service.json.JsonFields;
import dev.cryptopay.service.response.Envelope;
import dev.cryptopay.service.response.PathIds;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * Internal routes for a checkout or chain watcher (never routed by the gateway; an internal token is required like
 * on every route). {@code POST /internal/payment_links/{id}/transactions} records a transaction report;
 * {@code POST /internal/payment_links/{id}/refunds} records the refund of a confirmed one. 201 for a new record,
 * 200 for a repeated report.
 */
@RestController
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
    Mono<ResponseEntity<Map<String, Object>>> record(
            @PathVariable String id, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> report(body))
                .flatMap(report -> service.record(linkId(id), report))
                .map(recorded -> ResponseEntity.status(recorded.created() ? 201 : 200)
                        .body(render("Transaction recorded", recorded)));
    }

    @PostMapping("/internal/payment_links/{id}/refunds")
    Mono<ResponseEntity<Map<String, Object>>> refund(
            @PathVariable String id, @RequestBody(required = false) String body) {
        return Mono.fromSupplier(() -> {
                    JsonNode root = JsonFields.parseObject(json, body);
                    JsonFields fields = new JsonFields();
                    fields.rejectUnknown(root, "", List.of("network", "tx_hash"));
                    String network = fields.string(root, "network", "network", true, 1, 100);
                    String txHash = fields.string(root, "tx_hash", "tx_hash", true, 1, 200);
                    fields.throwIfAny();
                    return new String[] {network, txHash};
                })
                .flatMap(ref -> service.refund(linkId(id), ref[0], ref[1]))
                .map(recorded -> ResponseEntity.ok(render("Refund recorded", recorded)));
    }

    private TransactionReport report(String body) {
        JsonNode root = JsonFields.parseObject(json, body);
        JsonFields fields = new JsonFields();
        fields.rejectUnknown(
                root,
                "",
                List.of(
                        "network",
                        "tx_hash",
                        "payer_address",
                        "crypto_amount",
                        "fiat_amount",
                        "status",
                        "confirmations"));
        String network = fields.string(root, "network", "network", true, 1, 100);
        String txHash = fields.string(root, "tx_hash", "tx_hash", true, 1, 200);
        String payer = fields.string(root, "payer_address", "payer_address", true, 1, 200);
        BigDecimal crypto = fields.money(root, "crypto_amount", "crypto_amount", true, true);
        BigDecimal fiat = fields.money(root, "fiat_amount", "fiat_amount", false, true);
        String statusText = fields.string(root, "status", "status", true, 1, 20);
        TransactionStatus status = statusText == null ? null : TransactionStatus.fromWireName(statusText);
        if (statusText != null && (status == null || status == TransactionStatus.REFUNDED)) {
            fields.reject("status", "status must be one of pending, confirmed, failed");
        }
        Integer confirmations = fields.integer(root, "confirmations", "confirmations", false, 0, Integer.MAX_VALUE);
        fields.throwIfAny();
        return new TransactionReport(
                network, txHash, payer, crypto, fiat, status, confirmations == null ? 0 : confirmations);
    }

    private Map<String, Object> render(String message, TransactionService.Recorded recorded) {
        LinkTransaction transaction = recorded.transaction();
        Map<String, Object> tx = new LinkedHashMap<>();
        tx.put("id", transaction.id().toString());
        tx.put("network", transaction.network());
        tx.put("tx_hash", transaction.txHash());
        tx.put("payer_address", transaction.payerAddress());
        tx.put("crypto_amount", JsonFields.normalize(transaction.cryptoAmount()));
        if (transaction.fiatAmount() != null) {
            tx.put("fiat_amount", JsonFields.normalize(transaction.fiatAmount()));
        }
        tx.put("status", transaction.status().wireName());
        tx.put("confirmations", transaction.confirmations());
        tx.put("counted_as_use", transaction.countedAsUse());
        Map<String, Object> link = new LinkedHashMap<>();
        link.put("id", recorded.link().id().toString());
        link.put(
                "payment_status",
                recorded.link().effectiveStatus(clock.instant()).wireName());
        link.put("current_uses", recorded.link().currentUses());
        link.put("max_uses", recorded.link().maxUses());
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("transaction", tx);
        data.put("payment_link", link);
        return Envelope.of(message, data);
    }

    private static UUID linkId(String text) {
        return PathIds.uuid(text, "payment link");
    }
}
