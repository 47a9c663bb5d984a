package dev.cryptopay.paymentlinks.transaction;

import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.Violations;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Which confirmed transfer a refund is for: the body of {@code POST /internal/payment_links/{id}/refunds}. Its members
 * are a transaction report's, with the same rules, except that {@code log_index} may be left out when the transaction
 * holds one transfer to the link.
 *
 * @param logIndex null when not given
 */
public record RefundReport(String network, String txHash, Integer logIndex) {

    static final List<String> FIELDS =
            Field.names(TransactionReport.NETWORK, TransactionReport.TX_HASH, ResolveRequest.LOG_INDEX);

    static RefundReport parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        RefundReport refund = new RefundReport(
                TransactionReport.NETWORK.read(root, violations),
                TransactionReport.TX_HASH.read(root, violations),
                ResolveRequest.LOG_INDEX.read(root, violations));
        violations.throwIfAny();
        return refund;
    }
}
