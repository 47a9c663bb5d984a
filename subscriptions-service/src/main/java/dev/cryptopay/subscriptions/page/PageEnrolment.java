package dev.cryptopay.subscriptions.page;

import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.UnsignedField;
import dev.cryptopay.service.request.Violations;
import dev.cryptopay.subscriptions.plan.Addresses;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;
import org.springframework.util.MultiValueMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@code POST /checkout/subscribe/enrol} body, as the page's script sends it (JSON) or its by-hand form posts it
 * (form fields of the same names): the invited subscriber, the wallet, its subscribe transaction and, optionally, the
 * approval transaction and the approved amount. Everything else of the enrolment comes from the plan.
 *
 * @param amountApproved base units the wallet approved; null for the kit's approval
 */
record PageEnrolment(
        UUID subscriberId, String walletAddress, String subscribeHash, String approvalHash, BigInteger amountApproved) {

    private static final Pattern TX_HASH = Pattern.compile("0x[0-9a-fA-F]{64}");

    static final TextField SUBSCRIBER_ID = Field.uuid("subscriber_id").required();
    static final TextField WALLET_ADDRESS = Addresses.field("wallet_address").required();
    static final TextField SUBSCRIBE_HASH = transactionHash("subscribe_hash").required();
    static final TextField APPROVAL_HASH = transactionHash("approval_hash");
    static final UnsignedField AMOUNT_APPROVED =
            Field.unsignedDigits("amount_approved", 256).positive();

    static final List<String> FIELDS =
            Field.names(SUBSCRIBER_ID, WALLET_ADDRESS, SUBSCRIBE_HASH, APPROVAL_HASH, AMOUNT_APPROVED);

    static PageEnrolment parse(JsonMapper json, String body) {
        return read(JsonBody.object(json, body));
    }

    /** The by-hand form's fields (their first values; empty ones left out). */
    static PageEnrolment parse(JsonMapper json, MultiValueMap<String, String> form) {
        ObjectNode root = json.createObjectNode();
        form.forEach((name, values) -> {
            String value = values.isEmpty() ? null : values.get(0);
            if (value != null && !value.isBlank()) {
                root.put(name, value.strip());
            }
        });
        return read(root);
    }

    private static PageEnrolment read(JsonNode root) {
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        String subscriberId = SUBSCRIBER_ID.read(root, violations);
        String wallet = WALLET_ADDRESS.read(root, violations);
        String subscribeHash = SUBSCRIBE_HASH.read(root, violations);
        String approvalHash = APPROVAL_HASH.read(root, violations);
        BigInteger approved = AMOUNT_APPROVED.read(root, violations);
        violations.throwIfAny();
        return new PageEnrolment(
                UUID.fromString(subscriberId),
                Addresses.checksummed(wallet),
                subscribeHash.toLowerCase(Locale.ROOT),
                approvalHash == null ? null : approvalHash.toLowerCase(Locale.ROOT),
                approved);
    }

    private static TextField transactionHash(String name) {
        return Field.string(name).length(1, 100).matching(TX_HASH, "must be a 0x-prefixed 32-byte transaction hash");
    }
}
