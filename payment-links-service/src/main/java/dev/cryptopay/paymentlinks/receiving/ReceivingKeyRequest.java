package dev.cryptopay.paymentlinks.receiving;

import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@code PUT /payment_links/receiving_key} body: the key's text, checked here only for presence and length
 * ({@link ReceivingKeyService} checks what it is).
 */
record ReceivingKeyRequest(String extendedPublicKey) {

    static final TextField EXTENDED_PUBLIC_KEY =
            Field.string(ReceivingKeyService.FIELD).required().length(1, 200);
    static final List<String> FIELDS = Field.names(EXTENDED_PUBLIC_KEY);

    static ReceivingKeyRequest parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        String text = EXTENDED_PUBLIC_KEY.read(root, violations);
        violations.throwIfAny();
        return new ReceivingKeyRequest(text);
    }
}
