/**
 * The chain watcher: learns deposit addresses from payment events, scans each configured EVM chain for transfers to
 * them, follows confirmations and reorganisations, and reports to payment-links-service.
 */
package dev.cryptopay.chainwatcher;
