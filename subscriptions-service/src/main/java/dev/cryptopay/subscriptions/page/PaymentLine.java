package dev.cryptopay.subscriptions.page;

import java.time.Instant;

/**
 * One paid period as the page lists it.
 *
 * @param amount the amount in token units with its symbol ("10 USDC")
 * @param explorerUrl the transaction on the network's block explorer; null where none is configured
 */
record PaymentLine(Instant startsAt, Instant endsAt, String amount, String status, String txHash, String explorerUrl) {}
