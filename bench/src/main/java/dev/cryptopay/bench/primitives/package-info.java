/**
 * JMH benchmarks of the hot primitives ({@code bench/run-jmh}): request signatures, the canonical request, webhook
 * HMAC, the internal token, the create body's parsing, EIP-712 digests and rate-limit decisions.
 */
package dev.cryptopay.bench.primitives;
