package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.Mode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.UUID;

/**
 * A payment the subscription contract collected for one billing period of a link, recorded from its confirmed
 * {@code Charged} log ({@code logIndex}; null on records made before payments came from the chain).
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
        Instant createdAt,
        Instant updatedAt) {}
