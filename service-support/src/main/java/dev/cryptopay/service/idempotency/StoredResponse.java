package dev.cryptopay.service.idempotency;

/** The response a request produced, kept so a retry with the same Idempotency-Key gets exactly the same answer. */
public record StoredResponse(int status, String body) {}
