package dev.cryptopay.subscriptions.subscription;

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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@code POST /public/subscriptions/link/payment} body. {@code merchant_key} authenticated the merchant at the
 * gateway; the service only requires it to be there.
 */
public record PaymentRequest(
        UUID linkId,
        String txHash,
        Long blockNumber,
        String blockHash,
        UUID networkId,
        UUID currencyId,
        BigInteger amountPaid,
        String walletUsed) {

    private static final Pattern HASH = Pattern.compile("0x[0-9a-fA-F]{64}");

    static final TextField LINK_ID = Field.uuid("sub_link_id").required();
    static final TextField MERCHANT_KEY =
            Field.string("merchant_key").required().length(1, 200);
    static final TextField TX_HASH = hash("tx_hash").required();
    static final UnsignedField BLOCK_NUMBER = Field.unsigned("block_number", 53);
    static final TextField BLOCK_HASH = hash("block_hash");
    static final TextField NETWORK_ID = Field.uuid("network_id").required();
    static final TextField CURRENCY_ID = Field.uuid("currency_id").required();
    static final UnsignedField AMOUNT_PAID =
            Field.unsignedDigits("amount_paid", 256).positive().required();
    static final TextField WALLET_USED = Addresses.field("wallet_used").required();

    static final List<String> FIELDS = Field.names(
            LINK_ID,
            MERCHANT_KEY,
            TX_HASH,
            BLOCK_NUMBER,
            BLOCK_HASH,
            NETWORK_ID,
            CURRENCY_ID,
            AMOUNT_PAID,
            WALLET_USED);

    public static PaymentRequest parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        String linkId = LINK_ID.read(root, violations);
        MERCHANT_KEY.read(root, violations);
        String txHash = TX_HASH.read(root, violations);
        BigInteger blockNumber = BLOCK_NUMBER.read(root, violations);
        String blockHash = BLOCK_HASH.read(root, violations);
        String networkId = NETWORK_ID.read(root, violations);
        String currencyId = CURRENCY_ID.read(root, violations);
        BigInteger amount = AMOUNT_PAID.read(root, violations);
        String wallet = WALLET_USED.read(root, violations);
        violations.throwIfAny();
        return new PaymentRequest(
                UUID.fromString(linkId),
                txHash.toLowerCase(Locale.ROOT),
                blockNumber == null ? null : blockNumber.longValueExact(),
                blockHash == null ? null : blockHash.toLowerCase(Locale.ROOT),
                UUID.fromString(networkId),
                UUID.fromString(currencyId),
                amount,
                Addresses.checksummed(wallet));
    }

    private static TextField hash(String name) {
        return Field.string(name).length(1, 100).matching(HASH, "must be a 0x-prefixed 32-byte hash");
    }
}
