/**
 * Which bucket a request counts in, and per-key, per-(merchant_key, client address) and per-IP request budgets, in
 * memory or shared through Redis.
 */
package dev.cryptopay.gateway.ratelimit;
