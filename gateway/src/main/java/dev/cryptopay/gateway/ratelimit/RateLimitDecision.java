package dev.cryptopay.gateway.ratelimit;

/**
 * Outcome of taking one request from a bucket.
 *
 * @param allowed           whether the request may proceed
 * @param limit             bucket capacity (requests per window)
 * @param remaining         requests left in the current window after this one
 * @param resetSeconds      seconds until the bucket is full again (the window restarts)
 * @param retryAfterSeconds when refused, seconds until one request is allowed again; 0 when allowed
 */
public record RateLimitDecision(
        boolean allowed, long limit, long remaining, long resetSeconds, long retryAfterSeconds) {}
