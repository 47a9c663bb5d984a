package dev.cryptopay.paymentlinks.transaction;

import dev.cryptopay.service.request.DecimalField;
import dev.cryptopay.service.request.Field;
import dev.cryptopay.service.request.JsonBody;
import dev.cryptopay.service.request.TextField;
import dev.cryptopay.service.request.Violations;
import dev.cryptopay.service.request.WholeField;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a watcher reports about one transfer on chain: the body of
 * {@code POST /internal/payment_links/{id}/transactions}. A transfer is identified by (network, tx_hash, log_index):
 * one transaction may hold several, to several links or to one.
 *
 * @param logIndex              the ERC-20 Transfer log's index in its block; {@value #NATIVE_LOG_INDEX} for a
 *                              native-coin transfer (the transaction's value)
 * @param tokenContract         the contract of the token actually transferred, lower case; null for the native
 *                              coin. It may differ from the link's token (a wrong-token deposit)
 * @param cryptoAmount          in whole units of the transferred token
 * @param requiredConfirmations how many confirmations the watcher waits for; null when not reported
 */
public record TransactionReport(
        String network,
        String txHash,
        int logIndex,
        String tokenContract,
        String payerAddress,
        BigDecimal cryptoAmount,
        BigDecimal fiatAmount,
        TransactionStatus status,
        int confirmations,
        Integer requiredConfirmations) {

    /** The log index of a native-coin transfer, which has no log. */
    public static final int NATIVE_LOG_INDEX = -1;

    public static final TextField NETWORK = Field.string("network").required().length(1, 100);
    public static final TextField TX_HASH = Field.string("tx_hash").required().length(1, 200);
    public static final WholeField LOG_INDEX =
            Field.integer("log_index").required().range(NATIVE_LOG_INDEX, Integer.MAX_VALUE);
    public static final TextField TOKEN_CONTRACT = Field.string("token_contract")
            .matching(Pattern.compile("0x[0-9a-fA-F]{40}"), "must be 0x followed by 40 hexadecimal digits, or null");
    static final TextField PAYER_ADDRESS =
            Field.string("payer_address").required().length(1, 200);
    public static final DecimalField CRYPTO_AMOUNT =
            Field.money("crypto_amount").required().allowZero();
    static final DecimalField FIAT_AMOUNT = Field.money("fiat_amount").allowZero();
    public static final TextField STATUS = Field.string("status").required().length(1, 20);
    public static final WholeField CONFIRMATIONS =
            Field.integer("confirmations").range(0, Integer.MAX_VALUE);
    public static final WholeField REQUIRED_CONFIRMATIONS =
            Field.integer("required_confirmations").range(1, Integer.MAX_VALUE);
    static final List<String> FIELDS = Field.names(
            NETWORK,
            TX_HASH,
            LOG_INDEX,
            TOKEN_CONTRACT,
            PAYER_ADDRESS,
            CRYPTO_AMOUNT,
            FIAT_AMOUNT,
            STATUS,
            CONFIRMATIONS,
            REQUIRED_CONFIRMATIONS);

    /** Reads {@code status}: what a watcher reports of a transfer is pending, confirmed or failed. */
    public static TransactionStatus status(JsonNode root, Violations violations) {
        String statusText = STATUS.read(root, violations);
        TransactionStatus status = statusText == null ? null : TransactionStatus.fromWireName(statusText);
        if (statusText != null && (status == null || status == TransactionStatus.REFUNDED)) {
            violations.reject("status", "status must be one of pending, confirmed, failed");
        }
        return status;
    }

    /**
     * A token transfer has a log (index 0 or more), a native-coin transfer has none ({@value #NATIVE_LOG_INDEX}). The
     * pair is judged once both members could be read (a bad one is refused already).
     */
    public static void checkLogIndex(JsonNode root, Integer logIndex, String token, Violations violations) {
        boolean tokenRead = token != null || !root.hasNonNull(TOKEN_CONTRACT.name());
        if (logIndex != null && tokenRead && (token == null) != (logIndex == NATIVE_LOG_INDEX)) {
            violations.reject(
                    "log_index",
                    token == null
                            ? "log_index must be -1 for a native-coin transfer (token_contract null)"
                            : "log_index must be the Transfer log's index (0 or more) for a token");
        }
    }

    /**
     * Reads a report; a watcher reports pending, confirmed or failed (refunds have their own route). A token transfer
     * has a log (index 0 or more), a native-coin transfer has none (-1). The token contract is kept in lower case, so
     * it compares with the link's whatever case either was written in.
     */
    static TransactionReport parse(JsonMapper json, String body) {
        JsonNode root = JsonBody.object(json, body);
        Violations violations = new Violations();
        violations.rejectUnknown(root, "", FIELDS);
        String network = NETWORK.read(root, violations);
        String txHash = TX_HASH.read(root, violations);
        Integer logIndex = LOG_INDEX.read(root, violations);
        String token = TOKEN_CONTRACT.read(root, violations);
        String payer = PAYER_ADDRESS.read(root, violations);
        BigDecimal crypto = CRYPTO_AMOUNT.read(root, violations);
        BigDecimal fiat = FIAT_AMOUNT.read(root, violations);
        TransactionStatus status = status(root, violations);
        Integer confirmations = CONFIRMATIONS.read(root, violations);
        Integer required = REQUIRED_CONFIRMATIONS.read(root, violations);
        checkLogIndex(root, logIndex, token, violations);
        violations.throwIfAny();
        return new TransactionReport(
                network,
                txHash,
                logIndex,
                token == null ? null : token.toLowerCase(Locale.ROOT),
                payer,
                crypto,
                fiat,
                status,
                confirmations == null ? 0 : confirmations,
                required);
    }
}
