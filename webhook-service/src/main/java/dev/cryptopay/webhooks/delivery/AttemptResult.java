package dev.cryptopay.webhooks.delivery;

import java.time.Duration;

/**
 * What one attempt produced.
 *
 * @param statusCode the receiver's HTTP status, or null when no response arrived
 * @param outcome    {@code success}, {@code http_error}, {@code redirect}, {@code timeout}, {@code connection_error}
 *                   or {@code refused_address}
 * @param retryAfter the receiver's Retry-After, or null
 */
public record AttemptResult(
        Integer statusCode,
        String outcome,
        String error,
        long latencyMillis,
        Duration retryAfter,
        String responseExcerpt) {

    public boolean succeeded() {
        return "success".equals(outcome);
    }
}
