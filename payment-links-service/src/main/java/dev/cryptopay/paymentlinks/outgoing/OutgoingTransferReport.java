package dev.cryptopay.paymentlinks.outgoing;

import dev.cryptopay.paymentlinks.transaction.TransactionReport;
import dev.cryptopay.paymentlinks.transaction.TransactionStatus;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a watcher reports about one transfer out of a link's deposit address: the body of
 * {@code POST /internal/payment_links/{id}/outgoing_transfers}. Its members follow the transaction report's rules
 * ({@link TransactionReport}): identified by (network, tx_hash, log_index), log index -1 exactly for the native coin,
 * the token in lower case, the amount in whole units, status pending, confirmed or failed.
 *
 * @param fromAddress the deposit address it left (compared without regard to case)
 * @param toAddress   where it went
 */
public record OutgoingTransferReport(
        String network,
        String txHash,
        int logIndex,
        String tokenContract,
        String fromAddress,
        String toAddress,
        BigDecimal cryptoAmount,
        TransactionStatus status,
        int confirmations,
        Integer requiredConfirmations) {

    private static final Pattern ADDRESS = Pattern.compile("0x[0-9a-fA-F]{40}");
    static final TextField FROM_ADDRESS =
            Field.string("from_address").required().matching(ADDRESS, "must be 0x followed by 40 hexadecimal digits");
    static final TextField TO_ADDRESS =
            Field.string("to_address").required().matching(ADDRESS, "must be 0x followed by 40 hexadecimal digits");
    static final List<String> FIELDS = Field.names(
            TransactionReport.NETWORK,
            TransactionReport.TX_HASH,
            TransactionReport.LOG_INDEX,
            TransactionReport.TOKEN_CONTRACT,
            FROM_ADDRESS,
            TO_ADDRESS,
            TransactionReport.CRYPTO_AMOUNT,
            TransactionReport.STATUS,
            TransactionReport.CONFIRMATIONS,
            TransactionReport.REQUIRED_CONFIRMATIONS);

    static OutgoingTransferReport parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        String network = TransactionReport.NETWORK.read(root, violations);
        String txHash = TransactionReport.TX_HASH.read(root, violations);
        Integer logIndex = TransactionReport.LOG_INDEX.read(root, violations);
        String token = TransactionReport.TOKEN_CONTRACT.read(root, violations);
        String from = FROM_ADDRESS.read(root, violations);
        String to = TO_ADDRESS.read(root, violations);
        BigDecimal amount = TransactionReport.CRYPTO_AMOUNT.read(root, violations);
        TransactionStatus status = TransactionReport.status(root, violations);
        Integer confirmations = TransactionReport.CONFIRMATIONS.read(root, violations);
        Integer required = TransactionReport.REQUIRED_CONFIRMATIONS.read(root, violations);
        TransactionReport.checkLogIndex(root, logIndex, token, violations);
        violations.throwIfAny();
        return new OutgoingTransferReport(
                network,
                txHash,
                logIndex,
                token == null ? null : token.toLowerCase(Locale.ROOT),
                from,
                to,
                amount,
                status,
                confirmations == null ? 0 : confirmations,
                required);
    }
}
