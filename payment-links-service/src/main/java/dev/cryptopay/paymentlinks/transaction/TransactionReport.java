package dev.cryptopay.paymentlinks.transaction;

import dev.cryptopay.service.request.DecimalField;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import dev.cryptopay.service.request.WholeField;
import java.math.BigDecimal;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a watcher reports about one on-chain transaction: the body of
 * {@code POST /internal/payment_links/{id}/transactions}.
 *
 * @param requiredConfirmations how many confirmations the watcher waits for; null when not reported
 */
public record TransactionReport(
        String network,
        String txHash,
        String payerAddress,
        BigDecimal cryptoAmount,
        BigDecimal fiatAmount,
        TransactionStatus status,
        int confirmations,
        Integer requiredConfirmations) {

    static final TextField NETWORK = Field.string("network").required().length(1, 100);
    static final TextField TX_HASH = Field.string("tx_hash").required().length(1, 200);
    static final TextField PAYER_ADDRESS =
            Field.string("payer_address").required().length(1, 200);
    static final DecimalField CRYPTO_AMOUNT =
            Field.money("crypto_amount").required().allowZero();
    static final DecimalField FIAT_AMOUNT = Field.money("fiat_amount").allowZero();
    static final TextField STATUS = Field.string("status").required().length(1, 20);
    static final WholeField CONFIRMATIONS = Field.integer("confirmations").range(0, Integer.MAX_VALUE);
    static final WholeField REQUIRED_CONFIRMATIONS =
            Field.integer("required_confirmations").range(1, Integer.MAX_VALUE);
    static final List<String> FIELDS = Field.names(
            NETWORK, TX_HASH, PAYER_ADDRESS, CRYPTO_AMOUNT, FIAT_AMOUNT, STATUS, CONFIRMATIONS, REQUIRED_CONFIRMATIONS);

    /** Reads a report; a watcher reports pending, confirmed or failed (refunds have their own route). */
    static TransactionReport parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
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
}
