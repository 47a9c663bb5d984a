/**
 * The chain watcher: learns deposit addresses from payment events, scans each configured EVM chain for transfers to
 * them and for the logs of its subscription contract, follows confirmations and reorganisations, and reports to
 * payment-links-service (transfers) and subscriptions-service (contract logs).
 */
package dev.cryptopay.chainwatcher;
