package dev.cryptopay.paymentlinks.paymentlink;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cryptopay.service.money.Amounts;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * A refund as the merchant sees it (the refund routes, and a single-link read's {@code refunds}): what to send, from
 * the deposit address ({@code from_address}) to {@code to_address}, as the EIP-681 {@code payment_uri} the merchant's
 * wallet pays, and until when ({@code expires_at}). {@code transaction_id} (the transfer refunded) is absent for a
 * refund of the link's money, {@code token_contract} for the native coin, {@code tx_hash} and {@code log_index} until
 * a transfer paid it, {@code failure_reason} unless it failed.
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record RefundResponse(
        String id,
        String paymentLinkId,
        String transactionId,
        String status,
        String failureReason,
        BigDecimal amount,
        String asset,
        String tokenContract,
        int decimals,
        String amountBaseUnits,
        String network,
        long chainId,
        String fromAddress,
        String toAddress,
        String paymentUri,
        Instant expiresAt,
        String txHash,
        Integer logIndex,
        Instant createdAt,
        Instant updatedAt) {

    public static RefundResponse of(LinkRefund refund) {
        return new RefundResponse(
                refund.id().toString(),
                refund.paymentLinkId().toString(),
                refund.transactionId() == null ? null : refund.transactionId().toString(),
                refund.status().wireName(),
                refund.failure() == null ? null : refund.failure().wireName(),
                Amounts.jsonNumber(refund.amount()),
                refund.asset(),
                refund.tokenContract(),
                refund.decimals(),
                Amounts.tokenUnits(refund.amountBaseUnits()),
                refund.network(),
                refund.chainId(),
                refund.fromAddress(),
                refund.toAddress(),
                refund.paymentUri(),
                refund.expiresAt(),
                refund.txHash(),
                refund.logIndex(),
                refund.createdAt(),
                refund.updatedAt());
    }
}
