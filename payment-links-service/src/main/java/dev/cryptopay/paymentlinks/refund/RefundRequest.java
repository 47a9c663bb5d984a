package dev.cryptopay.paymentlinks.refund;

import dev.cryptopay.paymentlinks.receiving.EthereumAddress;
import dev.cryptopay.service.request.DecimalField;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the merchant refunds: the body of {@code POST /payment_links/{id}/refunds}, every member optional.
 *
 * @param amount        in whole units of the asset refunded; null: everything that can be refunded
 * @param address       where the money goes; null: the payer (see {@link RefundService#create})
 * @param transactionId the link's transfer refunded (its {@code id} in the link's {@code transactions}); null: the
 *                      link's money in its own asset
 */
public record RefundRequest(BigDecimal amount, String address, UUID transactionId) {

    static final DecimalField AMOUNT = Field.money("amount");
    static final TextField ADDRESS = Field.string("address")
            .code("invalid_address")
            .matching(Pattern.compile("0x[0-9a-fA-F]{40}"), "must be 0x followed by 40 hexadecimal digits")
            .satisfying(
                    EthereumAddress::isValid,
                    "has mixed-case letters that are not its EIP-55 checksum: check the address, or write it in "
                            + "lower case");
    static final TextField TRANSACTION_ID = Field.uuid("transaction_id");
    static final List<String> FIELDS = Field.names(AMOUNT, ADDRESS, TRANSACTION_ID);

    static RefundRequest parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        BigDecimal amount = AMOUNT.read(root, violations);
        String address = ADDRESS.read(root, violations);
        String transaction = TRANSACTION_ID.read(root, violations);
        violations.throwIfAny();
        return new RefundRequest(amount, address, transaction == null ? null : UUID.fromString(transaction));
    }
}
