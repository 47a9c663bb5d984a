package dev.cryptopay.paymentlinks.transaction;

import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import dev.cryptopay.service.request.WholeField;
import java.util.List;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Which late payment the merchant accepts: the body of {@code POST /payment_links/{id}/resolve}.
 *
 * @param txHash   the transaction's hash, {@code 0x} and 64 hex digits
 * @param logIndex which of its transfers to the link (as in the link's {@code transactions} or the event's
 *                 {@code log_index}); null when the transaction holds one transfer to the link
 */
public record ResolveRequest(String txHash, Integer logIndex) {

    static final TextField TX_HASH = Field.string("tx_hash")
            .required()
            .length(66, 66)
            .matching(Pattern.compile("0x[0-9a-fA-F]{64}"), "must be 0x followed by 64 hexadecimal digits");
    /** -2 names a transfer recorded before log indexes were kept. */
    static final WholeField LOG_INDEX = Field.integer("log_index").range(-2, Integer.MAX_VALUE);

    static final List<String> FIELDS = Field.names(TX_HASH, LOG_INDEX);

    static ResolveRequest parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        ResolveRequest request = new ResolveRequest(TX_HASH.read(root, violations), LOG_INDEX.read(root, violations));
        violations.throwIfAny();
        return request;
    }
}
