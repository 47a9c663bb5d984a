package dev.cryptopay.subscriptions.keeper;

import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.UnsignedField;
import dev.cryptopay.service.request.Violations;
import java.math.BigInteger;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@code POST /internal/keeper/scope} body: the chain, the subscription contract the keeper collects on it, and the
 * on-chain subscription ids (bytes32, 0x-hex) it asks about, at most {@value #MAX_IDS}. Hex is kept lower-case.
 */
record KeeperScopeRequest(long chainId, String contract, Set<String> subscriptionIds) {

    static final int MAX_IDS = 1000;

    private static final Pattern WORD = Pattern.compile("0x[0-9a-fA-F]{64}");
    static final UnsignedField CHAIN_ID = Field.unsigned("chain_id", 63).required();
    static final TextField CONTRACT = Field.string("contract")
            .required()
            .matching(Pattern.compile("0x[0-9a-fA-F]{40}"), "must be 0x and 40 hex digits");
    static final List<String> FIELDS = Field.names("subscription_ids", CHAIN_ID, CONTRACT);

    static KeeperScopeRequest parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        BigInteger chainId = CHAIN_ID.read(root, violations);
        String contract = CONTRACT.read(root, violations);
        Set<String> ids = ids(root.get("subscription_ids"), violations);
        violations.throwIfAny();
        return new KeeperScopeRequest(chainId.longValueExact(), contract.toLowerCase(Locale.ROOT), ids);
    }

    private static Set<String> ids(JsonNode node, Violations violations) {
        if (node == null || !node.isArray() || node.size() > MAX_IDS) {
            violations.reject("subscription_ids", "subscription_ids must be an array of at most " + MAX_IDS + " ids");
            return Set.of();
        }
        Set<String> ids = new LinkedHashSet<>();
        for (JsonNode id : node) {
            if (!id.isString() || !WORD.matcher(id.asString()).matches()) {
                violations.reject("subscription_ids", "every subscription id must be 0x and 64 hex digits");
                return Set.of();
            }
            ids.add(id.asString().toLowerCase(Locale.ROOT));
        }
        return ids;
    }
}
