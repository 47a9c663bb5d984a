/**
 * The load benchmarks against a running stack ({@code bench/run-load}, {@code LoadDriver}): closed and open loops over
 * the gateway and straight to a service, the create-and-webhook pipeline with a local webhook sink, and the CPU each
 * process spent, read from {@code /proc}.
 */
package dev.cryptopay.bench.load;
