/**
 * Chain benchmarks on anvil ({@code bench/run-chain-scan}, {@code bench/run-keeper}): chain-watcher run from its jar
 * with its own database behind a counting RPC proxy, watching many addresses or collecting many due subscriptions.
 */
package dev.cryptopay.bench.chain;
