package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.Mode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.UUID;

/**
 * A payment the subscription contract collected for one billing period of a link, recorded from its confirmed
 * {@code Charged} log ({@code logIndex}; null on records made before payments came from the chain).
 * {@code collectedAfterStop}: someone collected it while the link was stopped (not billed, or past its end); the money
 * moved and is recorded, flagged for the merchant to pay back.
 */
public record SubscriptionPayment(
        UUID id,
        UUID merchantId,
        Mode mode,
        UUID linkId,
        UUID networkId,
        String txHash,
        Long blockNumber,
        String blockHash,
        Integer logIndex,
        int confirmations,
        BigInteger amount,
        String userWalletAddress,
        String status,
        Instant paidAt,
        Instant startsAt,
        Instant endsAt,
        Instant nextBillingAt,
        boolean collectedAfterStop,
        Instant createdAt,
        Instant updatedAt) {}
