package dev.cryptopay.paymentlinks.paymentlink;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One transaction recorded against a link, as a single-link read shows it to the merchant.
 *
 * @param status                pending, confirmed, failed or refunded
 * @param requiredConfirmations how many confirmations the watcher waits for; null when it did not say
 * @param late                  it arrived after the link stopped taking payments (expired, completed, cancelled or
 *                              inactive)
 * @param countedAsUse          a completed use of the link consumed it (for a late one: the merchant resolved it)
 */
public record RecordedTransaction(
        String txHash,
        String network,
        String payerAddress,
        BigDecimal cryptoAmount,
        String status,
        int confirmations,
        Integer requiredConfirmations,
        boolean late,
        boolean countedAsUse,
        Instant createdAt) {}
