package dev.cryptopay.paymentlinks.transaction;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/** One blockchain transaction paying (or trying to pay) a link. */
public record LinkTransaction(
        UUID id,
        UUID paymentLinkId,
        String network,
        String txHash,
        String payerAddress,
        BigDecimal cryptoAmount,
        BigDecimal fiatAmount,
        TransactionStatus status,
        int confirmations,
        boolean countedAsUse,
        Instant createdAt,
        Instant updatedAt) {

    LinkTransaction withStatus(TransactionStatus newStatus, int newConfirmations, boolean counted, Instant now) {
        return new LinkTransaction(
                id,
                paymentLinkId,
                network,
                txHash,
                payerAddress,
                cryptoAmount,
                fiatAmount,
                newStatus,
                newConfirmations,
                counted,
                createdAt,
                now);
    }
}
