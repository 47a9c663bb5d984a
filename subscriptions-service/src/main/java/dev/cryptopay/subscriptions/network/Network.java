package dev.cryptopay.subscriptions.network;

import java.time.Instant;
import java.util.UUID;

/** An EVM network of the reference data; {@code symbol} is its native coin. */
public record Network(
        UUID id,
        String name,
        long chainId,
        String symbol,
        boolean testnet,
        boolean active,
        Instant createdAt,
        Instant updatedAt) {}
