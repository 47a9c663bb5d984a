package dev.cryptopay.paymentlinks.idempotency;

/** A response kept under an idempotency key. */
public record StoredResponse(int status, String body) {}
