package dev.cryptopay.paymentlinks.paymentlink;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.auth.Mode;
import dev.cryptopay.paymentlinks.receiving.EthereumAddress;
import dev.cryptopay.service.money.Amounts;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A link as the interface shows it: optional fields the merchant did not provide are omitted, amounts are exact
 * JSON numbers, timestamps ISO 8601 UTC, {@code payment_status} is the status as of the time of the answer, and
 * {@code summary} appears only on a single-link read. Beyond the interface document's fields, a link shows where it is
 * paid: {@code network}, {@code chain_id}, {@code token_contract} (absent for a native coin), {@code amount_base_units}
 * (a decimal string), and, once the merchant has a receiving key, {@code deposit_address} and the EIP-681
 * {@code payment_uri}; a single-link read also lists the link's recent {@code transactions}, {@code refunds} and
 * {@code outgoing_transfers}.
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record PaymentLinkResponse(
        String id,
        String paymentName,
        String description,
        BigDecimal amount,
        String currency,
        String paymentUrl,
        String network,
        Long chainId,
        String tokenContract,
        String amountBaseUnits,
        String depositAddress,
        String paymentUri,
        String paymentStatus,
        String paymentType,
        String source,
        boolean isTest,
        Instant expiresAt,
        int maxUses,
        int currentUses,
        boolean isActive,
        boolean isExpired,
        String customerId,
        String customerName,
        String customerEmail,
        String productName,
        String productDescription,
        JsonNode cart,
        String orderId,
        boolean autoFill,
        String successUrl,
        String cancelUrl,
        JsonNode webhookMetadata,
        String checkoutMode,
        String origin,
        Summary summary,
        List<Transaction> transactions,
        List<RefundResponse> refunds,
        List<OutgoingTransfer> outgoingTransfers,
        Instant createdAt) {

    static final String SOURCE = "payment_link_api";

    /**
     * One recorded transfer of the link, on single-link reads: {@code id} (what a refund names as
     * {@code transaction_id}), {@code tx_hash} and {@code log_index} name it (a transaction may hold several),
     * {@code asset} and {@code token_contract} (absent for the native coin) what arrived, {@code fiat_amount} its USD
     * value when confirmed (null when unknown), {@code refunded_amount} what completed refunds returned of it;
     * {@code late} when it arrived after the link stopped taking payments, {@code counted_as_use} when a use consumed
     * it (for a late one: the merchant resolved it), {@code unexpected_asset} when it is not the link's asset and counts
     * for nothing.
     */
    @JsonInclude(JsonInclude.Include.NON_ABSENT)
    public record Transaction(
            String id,
            String txHash,
            int logIndex,
            String network,
            String tokenContract,
            String asset,
            String payerAddress,
            BigDecimal cryptoAmount,
            @JsonInclude(JsonInclude.Include.ALWAYS) BigDecimal fiatAmount,
            BigDecimal refundedAmount,
            String status,
            int confirmations,
            Integer requiredConfirmations,
            boolean late,
            boolean countedAsUse,
            boolean unexpectedAsset,
            Instant createdAt) {

        static Transaction of(RecordedTransaction recorded) {
            return new Transaction(
                    recorded.id().toString(),
                    recorded.txHash(),
                    recorded.logIndex(),
                    recorded.network(),
                    recorded.tokenContract(),
                    recorded.asset(),
                    // EIP-55, so a merchant checking where a refund goes compares the casing wallets show.
                    EthereumAddress.hasShape(recorded.payerAddress())
                            ? EthereumAddress.checksummed(recorded.payerAddress())
                            : recorded.payerAddress(),
                    Amounts.jsonNumber(recorded.cryptoAmount()),
                    Amounts.jsonNumber(recorded.fiatAmount()),
                    Amounts.jsonNumber(recorded.refundedAmount()),
                    recorded.status(),
                    recorded.confirmations(),
                    recorded.requiredConfirmations(),
                    recorded.late(),
                    recorded.countedAsUse(),
                    recorded.unexpectedAsset(),
                    recorded.createdAt());
        }
    }

    /**
     * One transfer out of the link's deposit address, on single-link reads: {@code refund_id} names the refund it
     * paid; absent, it is a withdrawal the merchant made (a sweep).
     */
    @JsonInclude(JsonInclude.Include.NON_ABSENT)
    public record OutgoingTransfer(
            String txHash,
            int logIndex,
            String network,
            String tokenContract,
            String asset,
            String toAddress,
            BigDecimal cryptoAmount,
            String status,
            int confirmations,
            String refundId,
            Instant createdAt) {

        static OutgoingTransfer of(RecordedOutgoingTransfer recorded) {
            return new OutgoingTransfer(
                    recorded.txHash(),
                    recorded.logIndex(),
                    recorded.network(),
                    recorded.tokenContract(),
                    recorded.asset(),
                    recorded.toAddress(),
                    Amounts.jsonNumber(recorded.cryptoAmount()),
                    recorded.status(),
                    recorded.confirmations(),
                    recorded.refundId() == null ? null : recorded.refundId().toString(),
                    recorded.createdAt());
        }
    }

    /** How a stored link reads at {@code now}; {@code summary} and the lists only on single-link reads. */
    public static PaymentLinkResponse of(PaymentLinkView view, String paymentUrl, JsonMapper json) {
        PaymentLink link = view.link();
        Instant now = view.asOf();
        Summary summary = view.summary();
        ChainPayment payment = link.payment();
        return new PaymentLinkResponse(
                link.id().toString(),
                link.paymentName(),
                link.description(),
                Amounts.jsonNumber(link.amount()),
                link.currency(),
                paymentUrl,
                link.network(),
                payment == null ? null : payment.chainId(),
                payment == null ? null : payment.tokenContract(),
                payment == null ? null : payment.amountBaseUnits().toString(),
                payment == null ? null : payment.depositAddress(),
                payment == null ? null : payment.uri(),
                link.effectiveStatus(now).wireName(),
                link.paymentType(),
                SOURCE,
                link.mode() == Mode.TEST,
                link.expiresAt(),
                link.maxUses(),
                link.currentUses(),
                link.active(),
                link.isExpired(now),
                link.customerId(),
                link.customerName(),
                link.customerEmail(),
                link.productName(),
                link.productDescription(),
                tree(json, link.cart()),
                link.orderId(),
                link.autoFill(),
                link.successUrl(),
                link.cancelUrl(),
                tree(json, link.webhookMetadata()),
                link.checkoutMode(),
                link.origin(),
                summary == null ? null : summary.rendered(),
                view.transactions() == null
                        ? null
                        : view.transactions().stream().map(Transaction::of).toList(),
                view.refunds() == null
                        ? null
                        : view.refunds().stream().map(RefundResponse::of).toList(),
                view.outgoingTransfers() == null
                        ? null
                        : view.outgoingTransfers().stream()
                                .map(OutgoingTransfer::of)
                                .toList(),
                link.createdAt());
    }

    /** Cart and webhook_metadata are stored as JSON text and rendered as the JSON they are. */
    private static JsonNode tree(JsonMapper json, String text) {
        return text == null ? null : json.readTree(text);
    }
}
