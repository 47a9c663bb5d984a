package dev.cryptopay.subscriptions.subscription;

import dev.cryptopay.auth.Mode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.UUID;

/** A payment collected for one billing period of a link. */
public record SubscriptionPayment(
        UUID id,
        UUID merchantId,
        Mode mode,
        UUID linkId,
        UUID networkId,
        String txHash,
        Long blockNumber,
        String blockHash,
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
