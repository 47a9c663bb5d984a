package dev.cryptopay.paymentlinks.transaction;

import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import java.util.List;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Which late payment the merchant accepts: the body of {@code POST /payment_links/{id}/resolve}.
 *
 * @param txHash the transaction's hash, {@code 0x} and 64 hex digits
 */
public record ResolveRequest(String txHash) {

    static final TextField TX_HASH = Field.string("tx_hash")
            .required()
            .length(66, 66)
            .matching(Pattern.compile("0x[0-9a-fA-F]{64}"), "must be 0x followed by 64 hexadecimal digits");
    static final List<String> FIELDS = Field.names(TX_HASH);

    static ResolveRequest parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        ResolveRequest request = new ResolveRequest(TX_HASH.read(root, violations));
        violations.throwIfAny();
        return request;
    }
}
