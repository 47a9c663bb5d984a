package dev.cryptopay.gateway.keys;

import java.time.Instant;
import java.util.UUID;

/** A merchant as registered in the gateway. */
public record Merchant(UUID id, String name, String email, Instant createdAt) {}
