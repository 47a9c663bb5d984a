/**
 * The watch list: deposit addresses learned from {@code payment.created} events, each watched until a while after
 * expiry, and kept (or watched again) until a refund announced by {@code transfer.initiated} can no longer be paid.
 */
package dev.cryptopay.chainwatcher.watch;
