/** The watch list: deposit addresses learned from {@code payment.created} events, each watched until a while after expiry. */
package dev.cryptopay.chainwatcher.watch;
