/**
 * The keeper's scope: which on-chain subscriptions the platform's keeper (in the chain watcher) may collect. Only
 * those this service bound to a link it answers for, a link neither stopped nor expired, on a plan it holds that is
 * not revoked. The chain watcher asks before it spends a check or a transaction on one, so a stop here takes effect
 * for the keeper at its next pass.
 */
package dev.cryptopay.subscriptions.keeper;
