/**
 * What the subscription contract said on chain: the chain watcher's log reports (parsed and checked), the contract's
 * events decoded from them, and the log book that makes each report count once.
 */
package dev.cryptopay.subscriptions.onchain;
