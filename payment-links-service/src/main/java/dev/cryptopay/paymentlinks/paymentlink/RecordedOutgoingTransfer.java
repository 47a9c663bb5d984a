package dev.cryptopay.paymentlinks.paymentlink;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * One transfer out of the link's deposit address, as a single-link read shows it: a refund's payment
 * ({@code refundId}), or a withdrawal the merchant made (null {@code refundId}).
 *
 * @param logIndex      the transfer's log index in its block; -1 for the native coin
 * @param tokenContract the token that left (lower case); null for the native coin
 * @param asset         what left: the currency code when the catalogue knows it, else the contract
 * @param status        pending, confirmed or failed (reorganised away)
 */
public record RecordedOutgoingTransfer(
        String txHash,
        int logIndex,
        String network,
        String tokenContract,
        String asset,
        String toAddress,
        BigDecimal cryptoAmount,
        String status,
        int confirmations,
        UUID refundId,
        Instant createdAt) {}
