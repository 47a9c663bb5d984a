/**
 * Transfers out of a link's deposit address, as chain-watcher reports them through an internal route: one that pays
 * an open refund moves that refund; any other is a withdrawal the merchant made (a sweep), announced as
 * {@code wallet.withdrawal} once confirmed.
 */
package dev.cryptopay.paymentlinks.outgoing;
