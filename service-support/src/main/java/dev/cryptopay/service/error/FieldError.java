package dev.cryptopay.service.error;

/** One rejected input field and why. */
public record FieldError(String field, String message) {}
