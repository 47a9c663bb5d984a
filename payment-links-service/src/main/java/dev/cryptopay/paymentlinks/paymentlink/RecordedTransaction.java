package dev.cryptopay.paymentlinks.paymentlink;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * One transfer recorded against a link, as a single-link read shows it to the merchant.
 *
 * @param id                    the record's id: what {@code POST /payment_links/{id}/refunds} takes as
 *                              {@code transaction_id}
 * @param logIndex              the transfer's log index in its block (-1 for the native coin; -2 recorded before log
 *                              indexes were kept): with the hash it names the transfer
 * @param tokenContract         the token that arrived (lower case); null for the native coin
 * @param asset                 what arrived: the currency code when the catalogue knows it, else the contract
 * @param cryptoAmount          in units of that asset
 * @param fiatAmount            its value in USD when it was confirmed, as the chain watcher priced it; null when
 *                              unknown (no price feed, or not confirmed)
 * @param refundedAmount        how much of it completed refunds returned (0 when none)
 * @param status                pending, confirmed, failed or refunded (all of it returned)
 * @param requiredConfirmations how many confirmations the watcher waits for; null when it did not say
 * @param late                  it arrived after the link stopped taking payments (expired, completed, cancelled or
 *                              inactive)
 * @param countedAsUse          a completed use of the link consumed it (for a late one: the merchant resolved it)
 * @param unexpectedAsset       it is not the link's asset: it counts for nothing on the link
 */
public record RecordedTransaction(
        UUID id,
        String txHash,
        int logIndex,
        String network,
        String tokenContract,
        String asset,
        String payerAddress,
        BigDecimal cryptoAmount,
        BigDecimal fiatAmount,
        BigDecimal refundedAmount,
        String status,
        int confirmations,
        Integer requiredConfirmations,
        boolean late,
        boolean countedAsUse,
        boolean unexpectedAsset,
        Instant createdAt) {}
