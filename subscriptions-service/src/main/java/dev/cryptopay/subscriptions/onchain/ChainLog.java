package dev.cryptopay.subscriptions.onchain;

import dev.cryptopay.service.request.BoolField;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.TimestampField;
import dev.cryptopay.service.request.UnsignedField;
import dev.cryptopay.service.request.Violations;
import dev.cryptopay.service.request.WholeField;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One confirmed log of the subscription contract as the chain watcher reports it: the body of
 * {@code POST /internal/chain/logs}. {@code removed} is true when a log reported before was taken away by a
 * reorganisation deeper than the confirmations. Hex strings are stored lower-case.
 */
public record ChainLog(
        long chainId,
        String contract,
        String txHash,
        int logIndex,
        long blockNumber,
        String blockHash,
        Instant blockTime,
        List<String> topics,
        String data,
        int confirmations,
        boolean removed) {

    private static final Pattern WORD = Pattern.compile("0x[0-9a-fA-F]{64}");
    private static final Pattern ADDRESS = Pattern.compile("0x[0-9a-fA-F]{40}");
    private static final Pattern HEX = Pattern.compile("0x([0-9a-fA-F]{2})*");
    private static final String WORD_RULE = "must be 0x and 64 hex digits";

    static final UnsignedField CHAIN_ID = Field.unsigned("chain_id", 63).required();
    static final TextField CONTRACT =
            Field.string("contract").required().matching(ADDRESS, "must be 0x and 40 hex digits");
    static final TextField TX_HASH = Field.string("tx_hash").required().matching(WORD, WORD_RULE);
    static final WholeField LOG_INDEX = Field.integer("log_index").required();
    static final UnsignedField BLOCK_NUMBER = Field.unsigned("block_number", 63).required();
    static final TextField BLOCK_HASH = Field.string("block_hash").required().matching(WORD, WORD_RULE);
    static final TimestampField BLOCK_TIME = Field.timestamp("block_time").required();
    static final TextField DATA = Field.string("data")
            .required()
            .length(2, 2 + 2 * 65_536)
            .matching(HEX, "must be 0x and an even number of hex digits");
    static final WholeField CONFIRMATIONS = Field.integer("confirmations").required();
    static final BoolField REMOVED = Field.bool("removed");
    static final List<String> FIELDS = Field.names(
            "topics",
            CHAIN_ID,
            CONTRACT,
            TX_HASH,
            LOG_INDEX,
            BLOCK_NUMBER,
            BLOCK_HASH,
            BLOCK_TIME,
            DATA,
            CONFIRMATIONS,
            REMOVED);

    /** The topic-0 (event signature) of the log. */
    public String topic0() {
        return topics.get(0);
    }

    public static ChainLog parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        BigInteger chainId = CHAIN_ID.read(root, violations);
        String contract = CONTRACT.read(root, violations);
        String txHash = TX_HASH.read(root, violations);
        Integer logIndex = LOG_INDEX.read(root, violations);
        BigInteger blockNumber = BLOCK_NUMBER.read(root, violations);
        String blockHash = BLOCK_HASH.read(root, violations);
        Instant blockTime = BLOCK_TIME.read(root, violations);
        String data = DATA.read(root, violations);
        Integer confirmations = CONFIRMATIONS.read(root, violations);
        Boolean removed = REMOVED.read(root, violations);
        List<String> topics = topics(root.get("topics"), violations);
        violations.throwIfAny();
        return new ChainLog(
                chainId.longValueExact(),
                lower(contract),
                lower(txHash),
                logIndex,
                blockNumber.longValueExact(),
                lower(blockHash),
                blockTime,
                topics,
                lower(data),
                confirmations,
                Boolean.TRUE.equals(removed));
    }

    /** One to four 32-byte words: the event signature first, then the indexed arguments. */
    private static List<String> topics(JsonNode node, Violations violations) {
        if (node == null || !node.isArray() || node.isEmpty() || node.size() > 4) {
            violations.reject("topics", "topics must be an array of 1 to 4 topics");
            return List.of();
        }
        List<String> topics = new ArrayList<>();
        for (JsonNode topic : node) {
            if (!topic.isString() || !WORD.matcher(topic.asString()).matches()) {
                violations.reject("topics", "every topic " + WORD_RULE);
                return List.of();
            }
            topics.add(lower(topic.asString()));
        }
        return List.copyOf(topics);
    }

    private static String lower(String text) {
        return text == null ? null : text.toLowerCase(Locale.ROOT);
    }
}
