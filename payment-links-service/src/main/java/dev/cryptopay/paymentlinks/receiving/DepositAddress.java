package dev.cryptopay.paymentlinks.receiving;

import java.util.UUID;

/** The address a link is paid to: child {@code index} of receiving key {@code keyId}. */
public record DepositAddress(UUID keyId, int index, String address) {}
