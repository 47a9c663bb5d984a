/**
 * Refunds: the merchant asks for one ({@code POST /payment_links/{id}/refunds}), its own wallet pays it from the
 * link's deposit address, and the deposit address's outgoing transfers (reported by the chain watcher) move it to
 * pending, completed or failed; an initiated refund nothing paid in time is abandoned. {@code transfer.*} events
 * follow each step, {@code payment.refunded} the completion.
 */
package dev.cryptopay.paymentlinks.refund;
